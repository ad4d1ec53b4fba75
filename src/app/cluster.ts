import cluster, { type Worker } from 'node:cluster';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env';
import { startRuntime } from './bootstrap';
import { SHUTDOWN_SIGNALS } from './shutdown';

/**
 * WORKERS=N: this process prepares the database once (embedded server, migrations, admin key,
 * the generated keys in DATA_DIR), then runs N API processes that share the port (node:cluster
 * hands connections out round-robin). Each worker runs the background sweepers too: they are
 * safe with several processes. A worker that dies is replaced; SIGTERM, SIGINT or SIGHUP is
 * passed on to every worker, and the database is stopped once they have all finished.
 */
export async function runCluster(config: Config, log: FastifyBaseLogger): Promise<void> {
  let stopping: NodeJS.Signals | null = null;
  let pending: NodeJS.Signals | null = null;
  let stop: ((signal: NodeJS.Signals) => void) | null = null;
  const onSignal = (signal: NodeJS.Signals) => (stop ? stop(signal) : (pending ??= signal));
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);

  const runtime = await startRuntime(config, log);
  runtime.embedded?.onFailure((err) => {
    log.fatal({ err }, 'the embedded PostgreSQL is gone and could not be restarted: exiting');
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGKILL');
    process.exit(70);
  });
  const env = { DATABASE_URL: runtime.url, DATABASE_DIRECT_URL: config.databaseDirectUrl ?? runtime.url };
  const exits: Promise<number>[] = [];
  let recentDeaths: number[] = [];
  const fork = () => {
    const worker: Worker = cluster.fork(env);
    exits.push(
      new Promise((resolve) =>
        worker.once('exit', (code, signal) => {
          if (!stopping) {
            log.error(`worker ${worker.process.pid} exited (${signal ?? code}): starting another`);
            const now = Date.now();
            recentDeaths = [...recentDeaths.filter((t) => now - t < 10_000), now];
            // Workers that die on start would spin: wait a little when they keep dying.
            setTimeout(fork, recentDeaths.length > config.workers ? 2000 : 0);
          }
          resolve(code ?? (signal ? 1 : 0));
        }),
      ),
    );
  };
  for (let i = 0; i < config.workers; i++) fork();
  log.info(`${config.workers} API processes share port ${config.port}`);

  stop = (signal) => {
    if (stopping) return;
    stopping = signal;
    log.info(`${signal} received: stopping the API processes`);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill(signal);
    setTimeout(() => {
      log.error('API processes did not stop in time: exiting');
      process.exit(1);
    }, config.shutdownGraceMs + 45_000).unref();
    void (async () => {
      const codes = await Promise.all(exits);
      await runtime.close();
      log.info('shutdown complete: all API processes stopped');
      process.exit(codes.every((c) => c === 0) ? 0 : 1);
    })();
  };
  if (pending) stop(pending);
}
