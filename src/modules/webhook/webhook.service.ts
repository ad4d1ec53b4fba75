import { companyForMerchant } from '../company/company.access';
import { decryptSecret, encryptSecret } from '../payment/payment.api';
import { invalid, notFound } from '../../shared/errors';
import { isUuid, newId } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, ormSource, sqlSource } from '../../kernel/keyset';
import { Check } from '../../shared/validate';
import { refusedAtSave } from './outbound';
import { newSigningSecret } from './signing-secret';
import { readWebhookInput, type WebhookInput } from './webhook.checks';
import { WebhookEndpoint } from './webhook.entity';
import {
  deliveryJson,
  endpointJson,
  type AttemptRow,
  type CreatedWebhookEndpointJson,
  type DeliveryJson,
  type DeliveryRow,
  type WebhookEndpointJson,
} from './webhook.json';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/** Admin operations on webhook endpoints and their delivery log (permissions `webhooks.read` / `webhooks.write`). */

export const WEBHOOKS_MAX_LIMIT = 100;

export interface Paged<T> {
  items: T[];
  limit: number;
  offset: number;
  total: number;
}

/** The encryption context binds a stored secret to its row: a box copied to another endpoint does not decrypt. */
export const secretContext = (companyId: string, endpointId: string) => `webhook_endpoint/${companyId}/${endpointId}`;

export const sealSecret = (key: Buffer, companyId: string, endpointId: string, secret: string): string =>
  encryptSecret(secret, key, secretContext(companyId, endpointId));

/** The endpoint's signing secret; throws when it cannot be decrypted (ENCRYPTION_KEY changed). */
export const openSecret = (key: Buffer, companyId: string, endpointId: string, box: string): string =>
  decryptSecret(box, key, secretContext(companyId, endpointId));

/**
 * How many webhook signing secrets are stored, and how many of the 50 latest decrypt with
 * `key`: the start-up's choice of the encryption key counts them beside the payment secrets
 * (app/encryption-key.ts).
 */
export async function webhookSecretsReadableWith(ctx: Ctx, key: Buffer): Promise<{ total: number; readable: number }> {
  const rows = await ctx.em.execute<{ company_id: string; id: string; secret_enc: string; total: string }[]>(
    'select company_id, id, secret_enc, count(*) over () as total from webhook_endpoint order by updated_at desc limit 50',
  );
  const opens = (r: (typeof rows)[number]): boolean => {
    try {
      return typeof openSecret(key, r.company_id, r.id, r.secret_enc) === 'string';
    } catch {
      return false;
    }
  };
  return { total: Number(rows[0]?.total ?? 0), readable: rows.filter(opens).length };
}

async function endpointInCompany(ctx: Ctx, companyId: string, id: unknown): Promise<WebhookEndpoint> {
  if (!isUuid(id)) throw invalid('webhook id must be a UUID', [{ path: 'webhookID', message: 'must be a UUID' }]);
  const e = await ctx.em.findOne(WebhookEndpoint, { id: id.toLowerCase(), companyId });
  if (!e) throw notFound('webhook');
  return e;
}

async function readBody(ctx: Ctx, input: WebhookInput | null | undefined, creating: boolean) {
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const fields = readWebhookInput(c, input ?? {}, creating, ctx.deps.config.webhookAllowInsecure);
  c.done('invalid webhook');
  const refused = fields.url === undefined ? null : await refusedAtSave(ctx.deps, fields.url);
  if (refused) c.fail('url', refused);
  c.done('invalid webhook');
  return fields;
}

/** Registers an endpoint; the answer carries its signing secret, which is never shown again. */
export async function createWebhook(ctx: Ctx, companyId: string, input: WebhookInput): Promise<CreatedWebhookEndpointJson> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.write');
  const f = await readBody(ctx, input, true);
  const secret = newSigningSecret();
  const e = new WebhookEndpoint();
  Object.assign(e, {
    id: newId(),
    companyId: company.id,
    url: f.url!,
    eventTypes: f.eventTypes!,
    enabled: f.enabled ?? true,
    description: f.description ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  e.secretEnc = sealSecret(ctx.deps.encryptionKey, company.id, e.id, secret);
  ctx.em.persist(e);
  await ctx.em.flush();
  return { ...endpointJson(e), secret };
}

/** The company's endpoints, oldest first. */
export async function listWebhooks(
  ctx: Ctx,
  companyId: string,
  raw: { limit?: unknown; offset?: unknown },
): Promise<Paged<WebhookEndpointJson>> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.read');
  const { limit, offset } = parsePage(raw, WEBHOOKS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    WebhookEndpoint,
    { companyId: company.id },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset },
  );
  return { items: rows.map(endpointJson), limit, offset, total };
}

export async function getWebhook(ctx: Ctx, companyId: string, id: unknown): Promise<WebhookEndpointJson> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.read');
  return endpointJson(await endpointInCompany(ctx, company.id, id));
}

/** Changes the sent fields. Enabling an endpoint (again) clears why it was disabled and its failure streak. */
export async function updateWebhook(ctx: Ctx, companyId: string, id: unknown, input: WebhookInput): Promise<WebhookEndpointJson> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.write');
  const f = await readBody(ctx, input, false);
  const e = await endpointInCompany(ctx, company.id, id);
  if (f.url !== undefined) e.url = f.url;
  if (f.eventTypes !== undefined) e.eventTypes = f.eventTypes;
  if (f.description !== undefined) e.description = f.description;
  const toggled = f.enabled !== undefined && f.enabled !== e.enabled;
  if (f.enabled !== undefined) {
    if (f.enabled && !e.enabled) Object.assign(e, { disabledReason: null, failingSince: null });
    e.enabled = f.enabled;
  }
  e.updatedAt = ctx.now;
  await ctx.em.flush();
  if (toggled) await parkDeliveries(ctx, company.id, e.id, e.enabled ? ctx.now : null);
  return endpointJson(e);
}

/**
 * The pending deliveries of a disabled endpoint are parked (due at `infinity`), so the worker's
 * claim does not walk past them on every pass; enabling the endpoint makes them due at `at`.
 */
async function parkDeliveries(ctx: Ctx, companyId: string, endpointId: string, at: Date | null): Promise<void> {
  await ctx.em.execute(
    `update webhook_delivery set next_attempt_at = ?::timestamptz where company_id = ? and endpoint_id = ? and status = 'pending'`,
    [at ? at.toISOString() : 'infinity', companyId, endpointId],
    'run',
  );
}

/** Deletes an endpoint with its deliveries and their attempts (in a transaction: the audit log records it under the request's scope). */
export async function deleteWebhook(ctx: Ctx, companyId: string, id: unknown): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.write');
  const e = await endpointInCompany(ctx, company.id, id);
  await inTransaction(ctx, (tx) =>
    tx.em.execute('delete from webhook_endpoint where company_id = ? and id = ?', [company.id, e.id], 'run'),
  );
}

/** A new signing secret, answered this once; deliveries from now on are signed with it. The audit log records it masked. */
export async function rotateWebhookSecret(ctx: Ctx, companyId: string, id: unknown): Promise<{ secret: string }> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.write');
  const e = await endpointInCompany(ctx, company.id, id);
  const secret = newSigningSecret();
  const box = sealSecret(ctx.deps.encryptionKey, company.id, e.id, secret);
  await inTransaction(ctx, async (tx) => {
    const rotated = await tx.em.execute<{ id: string }[]>(
      'update webhook_endpoint set secret_enc = ?, updated_at = ?::timestamptz where company_id = ? and id = ? returning id',
      [box, ctx.now.toISOString(), company.id, e.id],
    );
    if (!rotated.length) throw notFound('webhook');
  });
  return { secret };
}

const DELIVERY_COLUMNS = `d.id, d.endpoint_id, d.event_id, v.type, d.status, d.attempts,
  nullif(d.next_attempt_at, 'infinity') as next_attempt_at, d.last_attempt_at, d.created_at`;

async function attemptsOf(ctx: Ctx, companyId: string, ids: string[]): Promise<Map<string, AttemptRow[]>> {
  const out = new Map<string, AttemptRow[]>();
  if (!ids.length) return out;
  const rows = await ctx.em.execute<AttemptRow[]>(
    `select id, delivery_id, attempt, succeeded, response_status, latency_ms, response_excerpt, error, created_at from webhook_attempt
      where company_id = ? and delivery_id = any(?::uuid[]) order by attempt desc`,
    [companyId, `{${ids.join(',')}}`],
  );
  for (const r of rows) out.set(r.delivery_id, [...(out.get(r.delivery_id) ?? []), r]);
  return out;
}

/** The deliveries to one endpoint, newest first, each with its attempts (newest first). */
export async function listDeliveries(
  ctx: Ctx,
  companyId: string,
  webhookId: unknown,
  raw: { limit?: unknown; offset?: unknown },
): Promise<Paged<DeliveryJson>> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.read');
  const { limit, offset } = parsePage(raw, WEBHOOKS_MAX_LIMIT);
  const e = await endpointInCompany(ctx, company.id, webhookId);
  const rows = await ctx.em.execute<(DeliveryRow & { total: string })[]>(
    `select ${DELIVERY_COLUMNS}, count(*) over () as total from webhook_delivery d
      join webhook_event v on v.company_id = d.company_id and v.id = d.event_id
      where d.company_id = ? and d.endpoint_id = ? order by d.created_at desc, d.id desc limit ? offset ?`,
    [company.id, e.id, limit, offset],
  );
  const total = rows.length
    ? Number(rows[0].total)
    : Number(
        (
          await ctx.em.execute<{ n: string }[]>('select count(*) as n from webhook_delivery where company_id = ? and endpoint_id = ?', [
            company.id,
            e.id,
          ])
        )[0].n,
      );
  const attempts = await attemptsOf(
    ctx,
    company.id,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => deliveryJson(r, attempts.get(r.id) ?? [])), limit, offset, total };
}

/** GraphQL: the company's endpoints as a connection (kernel/connection.ts), oldest first. */
export async function webhooksConnection(ctx: Ctx, companyId: string, args: ConnectionArgs): Promise<ConnectionJson<WebhookEndpointJson>> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.read');
  const keys = ORM_ORDERS.creation;
  const source = ormSource(ctx.em, WebhookEndpoint, { companyId: company.id }, keys, (rows: WebhookEndpoint[]) => rows.map(endpointJson));
  return connectionFrom(source, args, { ...listSpec(keys, 'webhooks', company.id), max: WEBHOOKS_MAX_LIMIT }, 'webhooks');
}

/** GraphQL: the deliveries to one endpoint as a connection, newest first (then by id, descending). */
export async function deliveriesConnection(
  ctx: Ctx,
  companyId: string,
  webhookId: unknown,
  args: ConnectionArgs,
): Promise<ConnectionJson<DeliveryJson>> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.read');
  const e = await endpointInCompany(ctx, company.id, webhookId);
  const keys: SortKey<DeliveryJson>[] = [
    { column: 'created_at', time: true, desc: true, of: (d) => d.createdAt },
    { column: 'id', desc: true, of: (d) => d.id },
  ];
  const source = sqlSource(ctx.em.getConnection(), {
    select: DELIVERY_COLUMNS,
    from: 'webhook_delivery d join webhook_event v on v.company_id = d.company_id and v.id = d.event_id',
    where: 'd.company_id = ? and d.endpoint_id = ?',
    params: [company.id, e.id],
    keys,
    alias: 'd.',
    map: async (rows) => {
      const attempts = await attemptsOf(
        ctx,
        company.id,
        rows.map((r) => String(r.id)),
      );
      return (rows as unknown as DeliveryRow[]).map((r) => deliveryJson(r, attempts.get(r.id) ?? []));
    },
  });
  return connectionFrom(source, args, { ...listSpec(keys, 'webhookDeliveries', e.id), max: WEBHOOKS_MAX_LIMIT }, 'deliveries');
}

/**
 * Sends a delivery's event to its endpoint again: a new delivery, due now (parked until the
 * endpoint is enabled, when it is not), with the same event (so the same `webhook-id`),
 * whatever became of the first one.
 */
export async function replayDelivery(ctx: Ctx, companyId: string, webhookId: unknown, deliveryId: unknown): Promise<DeliveryJson> {
  const company = await companyForMerchant(ctx, companyId, 'webhooks.write');
  const e = await endpointInCompany(ctx, company.id, webhookId);
  if (!isUuid(deliveryId)) throw invalid('delivery id must be a UUID', [{ path: 'deliveryID', message: 'must be a UUID' }]);
  const id = newId();
  const at = ctx.now.toISOString();
  const rows = await ctx.em.execute<DeliveryRow[]>(
    `with d as (
      insert into webhook_delivery (id, company_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
      select ?, company_id, endpoint_id, event_id, ?::timestamptz, ?::timestamptz, ?::timestamptz from webhook_delivery
        where company_id = ? and endpoint_id = ? and id = ?
      returning *
    ) select ${DELIVERY_COLUMNS} from d join webhook_event v on v.company_id = d.company_id and v.id = d.event_id`,
    [id, e.enabled ? at : 'infinity', at, at, company.id, e.id, deliveryId.toLowerCase()],
  );
  if (!rows.length) throw notFound('delivery');
  return deliveryJson(rows[0], []);
}
