import { createHash } from 'node:crypto';
import { conflict, invalid } from '../../shared/errors';
import { type AppDeps, type Ctx, systemCtx } from '../../kernel/context';

/**
 * `Idempotency-Key` on booking-creating requests. The first successful response is stored in
 * the booking's own transaction, so a stored response always matches a committed booking and
 * a failed attempt (which rolls back) leaves nothing behind: the retry runs again. Keys live
 * 24 hours; they are scoped by company, and the request hash covers the operation, the caller
 * and the body, so a key reused for something else is a 409 instead of a stranger's booking.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;

export interface Idempotency {
  key: string;
  hash: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** Thrown inside the transaction when another request already owns the key. */
export class KeyTaken extends Error {
  constructor() {
    super('idempotency key taken');
  }
}

function canonical(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

/** Parses the header value and fingerprints the request; undefined when no key was sent. */
export function idempotencyOf(rawKey: unknown, operation: string, caller: string, body: unknown): Idempotency | undefined {
  if (rawKey === undefined || rawKey === null || rawKey === '') return undefined;
  if (typeof rawKey !== 'string' || !KEY.test(rawKey)) {
    throw invalid('Idempotency-Key must be 1 to 255 printable characters', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  const hash = createHash('sha256')
    .update(JSON.stringify([operation, caller, canonical(body ?? {})]))
    .digest('hex');
  return { key: rawKey, hash };
}

function replay(row: { request_hash: string; status: number; response: unknown }, idem: Idempotency): StoredResponse {
  if (row.request_hash !== idem.hash) throw conflict('the Idempotency-Key was already used with a different request');
  return { status: row.status, body: typeof row.response === 'string' ? JSON.parse(row.response) : row.response };
}

/** The stored response for the key (a 409 when it belongs to another request), or null. */
export async function storedResponse(ctx: Ctx, companyId: string, idem: Idempotency, now: Date): Promise<StoredResponse | null> {
  const rows = await ctx.em.execute<{ request_hash: string; status: number; response: unknown }[]>(
    'select request_hash, status, response from idempotency_key where company_id = ? and key = ? and created_at > ?::timestamptz',
    [companyId, idem.key, new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()],
  );
  return rows.length ? replay(rows[0], idem) : null;
}

/**
 * Claims the key as the transaction's first write. A concurrent request with the same key
 * waits on the row until this transaction ends, then finds it taken (KeyTaken), so one key
 * makes one booking. An expired row is taken over.
 */
export async function claimKey(ctx: Ctx, companyId: string, idem: Idempotency, now: Date): Promise<void> {
  const rows = await ctx.em.execute<{ key: string }[]>(
    `insert into idempotency_key (company_id, key, request_hash, status, response, created_at) values (?, ?, ?, 0, 'null'::jsonb, ?::timestamptz)
     on conflict (company_id, key) do update set request_hash = excluded.request_hash, status = 0, response = 'null'::jsonb, created_at = excluded.created_at
     where idempotency_key.created_at <= ?::timestamptz
     returning key`,
    [companyId, idem.key, idem.hash, now.toISOString(), new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()],
  );
  if (!rows.length) throw new KeyTaken();
}

/** Stores the response of the request that claimed the key (same transaction). */
export async function storeResponse(ctx: Ctx, companyId: string, idem: Idempotency, res: StoredResponse): Promise<void> {
  await ctx.em.execute(
    'update idempotency_key set status = ?, response = ?::jsonb where company_id = ? and key = ?',
    [res.status, JSON.stringify(res.body), companyId, idem.key],
    'run',
  );
}

/** Deletes keys past their 24 hours (any process may run it; the delete is idempotent). Returns how many went. */
export async function purgeIdempotencyKeys(ctx: Ctx, now: Date): Promise<number> {
  const res = await ctx.em.execute<{ affectedRows?: number }>(
    'delete from idempotency_key where created_at <= ?::timestamptz',
    [new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()],
    'run',
  );
  return (res as { affectedRows?: number }).affectedRows ?? 0;
}

/** Purges expired keys every hour; the returned function stops it. */
export function startIdempotencyPurge(deps: AppDeps, intervalMs = 3600_000): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = purgeIdempotencyKeys(systemCtx(deps, 'booking'), new Date(deps.clock.now()))
      .catch((err) => deps.log.error({ err }, 'idempotency key purge failed'))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
