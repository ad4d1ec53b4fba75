import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/**
 * How fast a Node.js server accepts a burst of new connections while its event loop is busy:
 * libuv accepts one connection per turn of the loop (it stopped accepting in a loop in 1.45), so
 * a burst of N connections takes N turns to be accepted, and a client arriving behind the burst
 * waits for all of them. A server whose turns take ACCEPT_TURN_MS (0, 5, 15 by default) is sent
 * ACCEPT_CONNECTIONS (50) connections at once from another process; reports when the client saw
 * each connection established and when the server accepted it (ms from the first connect).
 */

const CONNECTIONS = Number(process.env.ACCEPT_CONNECTIONS ?? 50);
const TURNS = (process.env.ACCEPT_TURN_MS ?? '0,5,15').split(',').map(Number);

interface ClientReport {
  started: number;
  connected: number[];
}

/** Opens CONNECTIONS connections at once and reports when each was established (epoch ms). */
function client(port: number): void {
  const started = performance.timeOrigin + performance.now();
  const connected: number[] = [];
  const sockets = Array.from({ length: CONNECTIONS }, () => {
    const s = connect(port, '127.0.0.1', () => {
      connected.push(performance.timeOrigin + performance.now());
      if (connected.length === CONNECTIONS) process.send!({ started, connected } satisfies ClientReport);
    });
    s.on('error', () => undefined);
    return s;
  });
  process.once('message', () => {
    for (const s of sockets) s.destroy();
    process.exit(0);
  });
}

async function measure(turnMs: number) {
  const accepted: number[] = [];
  const server = createServer((_req, res) => res.end());
  server.on('connection', () => accepted.push(performance.timeOrigin + performance.now()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let busy = true;
  // each turn of the loop does turnMs of work, as a server busy serving other requests would
  const spin = () => {
    if (!busy) return;
    const end = performance.now() + turnMs;
    while (performance.now() < end);
    setImmediate(spin);
  };
  spin();
  const child = fork(__filename, [], {
    env: { ...process.env, BENCH_ROLE: 'accept-client', ACCEPT_PORT: String((server.address() as AddressInfo).port) },
  });
  const report = await new Promise<ClientReport>((resolve) => child.once('message', (m) => resolve(m as ClientReport)));
  while (accepted.length < CONNECTIONS) await new Promise((r) => setTimeout(r, 5));
  busy = false;
  child.send('stop');
  server.close();
  server.closeAllConnections();
  const ms = (at: number) => Number((at - report.started).toFixed(1));
  return {
    turnMs,
    connections: CONNECTIONS,
    allEstablishedMs: ms(Math.max(...report.connected)),
    firstAcceptedMs: ms(accepted[0]),
    lastAcceptedMs: ms(accepted.at(-1)!),
    msPerAccept: Number(((accepted.at(-1)! - accepted[0]) / (CONNECTIONS - 1)).toFixed(2)),
  };
}

async function main(): Promise<void> {
  const runs = [];
  for (const turn of TURNS) runs.push(await measure(turn));
  console.log(JSON.stringify({ benchmark: 'accept', node: process.version, libuv: process.versions.uv, runs }, null, 2));
}

if (process.env.BENCH_ROLE === 'accept-client') {
  client(Number(process.env.ACCEPT_PORT));
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
