import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError, type Config } from '../config/env';
import type { Ctx } from '../kernel/context';
import { storedSecretsReadableWith } from '../modules/payment/secrets-at-rest';
import { webhookSecretsReadableWith } from '../modules/webhook/webhook.service';

/**
 * The key derived from a constant that installations without ENCRYPTION_KEY used before keys
 * were generated per data directory; kept only for the secrets they stored.
 */
export const LEGACY_DEVELOPMENT_KEY = createHash('sha256').update('booking-platform development encryption key').digest();

/** Decodes ENCRYPTION_KEY (32 bytes, base64). */
export function encryptionKeyFrom(config: Config): Buffer {
  const key = Buffer.from(config.encryptionKey ?? '', 'base64');
  if (key.length !== 32) throw new ConfigError('ENCRYPTION_KEY must be 32 bytes, base64 encoded (openssl rand -base64 32)');
  return key;
}

/** File in DATA_DIR holding the generated key (32 bytes, base64) when ENCRYPTION_KEY is unset. */
export const ENCRYPTION_KEY_FILE = 'encryption-key';

function readKeyFile(file: string): Buffer {
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  // A damaged file must stop the start: a fresh key would make every stored secret unreadable.
  if (key.length !== 32) throw new ConfigError(`${file} must hold 32 bytes, base64 encoded; restore it or set ENCRYPTION_KEY`);
  return key;
}

/**
 * The key of secrets at rest (provider and webhook signing secrets):
 *
 * 1. ENCRYPTION_KEY when set.
 * 2. Else the key generated in DATA_DIR/encryption-key on an earlier start.
 * 3. Else, when the database already holds secrets encrypted with the old built-in development
 *    key (an installation that predates generated keys, whether or not its DATA_DIR survived),
 *    that key stays in use, with a warning: generating a new one would make them unreadable,
 *    and re-encrypting them here would break other processes sharing the database.
 * 4. Else a random key is generated into DATA_DIR/encryption-key (mode 0600), as the JWT
 *    secret is. Secrets found in the database that it cannot read (DATA_DIR lost, key changed)
 *    are reported; they must be saved again.
 */
export async function resolveEncryptionKey(config: Config, ctx: Ctx, log: FastifyBaseLogger): Promise<Buffer> {
  if (config.encryptionKey) return encryptionKeyFrom(config);
  const file = join(config.dataDir, ENCRYPTION_KEY_FILE);
  if (existsSync(file)) {
    log.warn(`ENCRYPTION_KEY is not set: secrets at rest use the key generated in ${file}; set ENCRYPTION_KEY in production`);
    return readKeyFile(file);
  }
  const legacy = await storedSecretsReadableWith(ctx, LEGACY_DEVELOPMENT_KEY);
  const legacyHooks = await webhookSecretsReadableWith(ctx, LEGACY_DEVELOPMENT_KEY);
  if (legacy.readable > 0 || legacyHooks.readable > 0) {
    log.warn(
      'ENCRYPTION_KEY is not set and the stored secrets were encrypted with the old built-in development key, which stays in use: ' +
        'set ENCRYPTION_KEY and save the payment provider signing secrets again',
    );
    return LEGACY_DEVELOPMENT_KEY;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, randomBytes(32).toString('base64'), { mode: 0o600 });
  renameSync(tmp, file);
  log.warn(
    `ENCRYPTION_KEY is not set: generated a key for secrets at rest in ${file}; set ENCRYPTION_KEY in production, and whenever several processes share the database or DATA_DIR is not kept`,
  );
  if (legacy.total > 0) {
    log.error(
      `${legacy.total} stored payment signing secrets cannot be decrypted with any known key (ENCRYPTION_KEY changed or DATA_DIR lost): save them again`,
    );
  }
  if (legacyHooks.total > 0) {
    log.error(
      `${legacyHooks.total} stored webhook signing secrets cannot be decrypted with any known key (ENCRYPTION_KEY changed or DATA_DIR lost): rotate them`,
    );
  }
  return readKeyFile(file);
}
