import 'reflect-metadata';
import { loadConfig, ConfigError } from './config/env';
import { startRuntime } from './app/bootstrap';
import { buildServer } from './app/server';
import { modules } from './app/registry';
import { createLogger } from './app/log';

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
  const runtime = await startRuntime(config, log);
  const app = await buildServer(runtime.deps);
  const stops = modules.map((m) => m.start?.(runtime.deps)).filter((s): s is () => Promise<void> => typeof s === 'function');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info(`${signal} received: finishing in-flight requests`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await Promise.all(stops.map((s) => s()));
      await app.close();
      await runtime.close();
    } catch (err) {
      log.error({ err }, 'error during shutdown');
    }
    log.info('server stopped');
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${config.port}`;
  log.info(`listening on ${base}: GraphQL ${base}/graphql, REST ${base}/v1, OpenAPI ${base}/v1/openapi.json`);
  log.info(
    config.adminApiKey
      ? 'ADMIN_API_KEY is set: send it as the X-API-Key header'
      : 'no ADMIN_API_KEY set: create a merchant key with `npm run cli -- merchant:create --name <name>`, or restart with ADMIN_API_KEY=<a secret of 16+ characters>',
  );
}

main().catch((err) => {
  console.error('failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
