import 'reflect-metadata';
import pino from 'pino';
import { loadConfig } from './config/env';
import { startRuntime } from './app/bootstrap';
import { createMerchant } from './modules/company/apikey.service';

const USAGE = 'usage: npm run cli -- merchant:create --name <name>';

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'merchant:create') {
    console.error(USAGE);
    return 2;
  }
  const i = rest.indexOf('--name');
  const name = i >= 0 ? rest[i + 1]?.trim() : undefined;
  if (!name) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const runtime = await startRuntime(config, pino({ level: 'warn' }));
  try {
    const { merchant, secret } = await createMerchant(runtime.deps.orm.em.fork(), name);
    console.log(`merchant ${merchant.id} created: ${name}`);
    console.log(`API key (shown once; send it as X-API-Key): ${secret}`);
  } finally {
    await runtime.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error('failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
