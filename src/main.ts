import 'reflect-metadata';
import cluster from 'node:cluster';
import { loadConfig, ConfigError } from './config/env';
import { startRuntime } from './app/bootstrap';
import { buildServer } from './app/server';
import { startModules } from './app/registry';
import { createLogger } from './app/log';
import { runCluster } from './app/cluster';
import { systemClock } from './kernel/context';
import { closeHttpServer, SHUTDOWN_SIGNALS } from './app/shutdown';

/**
 * The process entry. It alone handles SIGINT, SIGTERM and SIGHUP (the terminal that runs it was
 * closed; Apollo's and the embedded database package's own handlers are off), and shuts down on
 * any of them in this order: stop accepting connections and refuse new requests on kept-alive
 * ones (503, `Connection: close`), let the requests in flight finish (at most
 * SHUTDOWN_GRACE_MS), stop the background work, close the pool, stop the embedded database,
 * exit 0. With WORKERS > 1 it starts that many such processes instead
 * (src/app/cluster.ts).
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`configuration error: ${e.message}`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger(config);
  if (config.workers > 1 && cluster.isPrimary) return runCluster(config, log);
  // Signals that arrive while starting are honoured once the server is up.
  let pending: NodeJS.Signals | null = null;
  let shutdown: ((signal: NodeJS.Signals) => void) | null = null;
  const onSignal = (signal: NodeJS.Signals) => (shutdown ? shutdown(signal) : (pending ??= signal));
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);

  // A cluster's workers find the database prepared (migrated) by the primary process.
  const runtime = await startRuntime(config, log, systemClock, { migrate: !cluster.isWorker });
  runtime.embedded?.onFailure((err) => {
    // A supervisor (systemd, Kubernetes, Docker) restarts the process, and with it the database.
    log.fatal({ err }, 'the embedded PostgreSQL is gone and could not be restarted: exiting');
    process.exit(70);
  });
  const app = await buildServer(runtime.deps);
  const stops = startModules(runtime.deps);

  let closing = false;
  shutdown = (signal) => {
    if (closing) {
      log.info(`${signal} received again: still finishing requests in flight`);
      return;
    }
    closing = true;
    void (async () => {
      const grace = config.shutdownGraceMs;
      log.info(`${signal} received: no new connections; finishing requests in flight (at most ${grace} ms)`);
      // Whatever hangs, the process ends: the grace, then time to close the pool and the database.
      setTimeout(() => {
        log.error('shutdown did not finish in time: exiting');
        process.exit(1);
      }, grace + 40_000).unref();
      let code = 0;
      try {
        const drained = await closeHttpServer(app, grace);
        if (!drained) {
          log.warn(`requests still in flight after ${grace} ms: closing their connections`);
          app.server.closeAllConnections();
        }
        await Promise.all(stops.map((s) => s()));
        await runtime.close();
        log.info('shutdown complete: server stopped');
      } catch (err) {
        log.error({ err }, 'error during shutdown');
        code = 1;
      }
      process.exit(code);
    })();
  };

  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${config.port}`;
  log.info(`listening on ${base}: GraphQL ${base}/graphql, REST ${base}/v1, OpenAPI ${base}/v1/openapi.json`);
  log.info(
    config.adminApiKey
      ? 'ADMIN_API_KEY is set: send it as the X-API-Key header'
      : 'no ADMIN_API_KEY set: create a merchant key with `npm run cli -- merchant:create --name <name>`, or restart with ADMIN_API_KEY=<a secret of 16+ characters>',
  );
  if (pending) shutdown(pending);
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
