import pino from 'pino';
import { loadConfig } from './config/env';
import { startRuntime } from './app/bootstrap';
import { createMerchant } from './modules/company/apikey.service';

/** `merchant:create --name <name>`: a merchant and its first API key, printed once. */
export async function createMerchantCommand(name: string): Promise<void> {
  const runtime = await startRuntime(loadConfig(), pino({ level: 'warn' }));
  try {
    const { merchant, secret } = await createMerchant(runtime.deps.orm.em.fork(), name);
    console.log(`merchant ${merchant.id} created: ${name}`);
    console.log(`API key (shown once; send it as X-API-Key): ${secret}`);
  } finally {
    await runtime.close();
  }
}
