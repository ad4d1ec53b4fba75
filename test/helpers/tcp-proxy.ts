import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to PostgreSQL (or Redis) that a test can take down (every connection cut, new ones
 * refused) and bring back on the same port: a database outage without stopping the shared test
 * server. It can also hold the server's answers back while the connections stay open (a server
 * that has stopped answering), and let them go again.
 */
export interface TcpProxy {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  /** The answers of every open connection wait (nothing is lost) until `release`. */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let holding = false;
  let server: Server | null = null;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const srv = createServer((client) => {
        const upstream = connect(targetPort, targetHost);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => undefined);
        }
        const pair = { client, upstream };
        pairs.add(pair);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => {
          pairs.delete(pair);
          client.destroy();
        });
        client.pipe(upstream);
        if (!holding) upstream.pipe(client);
      });
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        port = (srv.address() as { port: number }).port;
        server = srv;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return {
    get port() {
      return port;
    },
    down: stop,
    up: listen,
    hold() {
      holding = true;
      for (const { client, upstream } of pairs) {
        upstream.unpipe(client);
        upstream.pause();
      }
    },
    release() {
      holding = false;
      for (const { client, upstream } of pairs) upstream.pipe(client);
    },
    close: stop,
  };
}
