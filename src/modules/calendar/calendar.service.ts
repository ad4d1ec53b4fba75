import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../../kernel/context';
import { getResourceInCompany } from '../catalog/catalog.lookup';
import { companyForMerchant } from '../company/company.access';
import { invalid, notFound } from '../../shared/errors';
import { newId } from '../../shared/ids';
import { CalendarFeed } from './calendar.entity';
import { renderFeed, type FeedEvent } from './ics';
import { inTransaction } from '../../kernel/transaction';

/**
 * Calendar feeds: issuing and revoking a feed's secret URL (bookings.write: a new URL hands
 * the bookings to whoever holds it, and a read-only key must not replace or revoke the URL a
 * calendar subscribes to), and serving the feed itself (its URL is the credential).
 */

const FEED_PERMISSION = 'bookings.write';
const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export const DEFAULT_PAST_DAYS = 30;
export const DEFAULT_FUTURE_DAYS = 180;
export const MAX_PAST_DAYS = 366;
export const MAX_FUTURE_DAYS = 731;
/** at most this many events per answer (the earliest first) */
export const MAX_EVENTS = 5000;
const DAY_MS = 86_400_000;

const feedUrl = (ctx: Ctx, token: string): string => `${ctx.deps.config.publicUrl}/v1/calendar/${token}.ics`;

/**
 * Issues the secret URL of a resource's feed (or the company's, `resourceId` null). Only its
 * hash is stored, so the URL is shown once; issuing again replaces the previous URL.
 */
export async function createCalendarFeed(ctx: Ctx, companyId: string, resourceId: string | null): Promise<{ url: string }> {
  const company = await companyForMerchant(ctx, companyId, FEED_PERMISSION);
  const resource = resourceId === null ? null : await getResourceInCompany(ctx, company.id, resourceId, 'resource_id');
  const token = randomBytes(32).toString('base64url');
  await inTransaction(ctx, async (tx) => {
    const old = await tx.em.findOne(CalendarFeed, { companyId: company.id, resourceId: resource?.id ?? null });
    if (old) {
      tx.em.remove(old);
      // the unique index on the scope sees the delete first
      await tx.em.flush();
    }
    tx.em.persist(
      Object.assign(new CalendarFeed(), {
        id: newId(),
        companyId: company.id,
        resourceId: resource?.id ?? null,
        tokenHash: hashToken(token),
        createdAt: ctx.now,
      }),
    );
    await tx.em.flush();
  });
  return { url: feedUrl(ctx, token) };
}

/** Revokes the feed URL of a resource (or of the company); its old URL answers 404 from then on. 404 when there is none. */
export async function revokeCalendarFeed(ctx: Ctx, companyId: string, resourceId: string | null): Promise<void> {
  const company = await companyForMerchant(ctx, companyId, FEED_PERMISSION);
  const resource = resourceId === null ? null : await getResourceInCompany(ctx, company.id, resourceId, 'resource_id');
  const feed = await ctx.em.findOne(CalendarFeed, { companyId: company.id, resourceId: resource?.id ?? null });
  if (!feed) throw notFound('calendar feed');
  await ctx.em.remove(feed).flush();
}

export interface FeedWindow {
  pastDays?: unknown;
  futureDays?: unknown;
}

function days(v: unknown, name: string, dflt: number, max: number): number {
  if (v === undefined || v === null || v === '') return dflt;
  const n = typeof v === 'string' && /^\d{1,6}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > max)
    throw invalid(`${name} must be an integer from 0 to ${max}`, [{ path: name, message: `must be an integer from 0 to ${max}` }]);
  return n;
}

interface Row {
  id: string;
  status: 'pending' | 'confirmed';
  start_ms: number;
  end_ms: number | null;
  created_ms: number;
  updated_ms: number;
  ical_sequence: number;
  spots: number;
  service_name: string;
  resource_name: string;
}

const ms = (col: string, as: string) => `(extract(epoch from ${col}) * 1000)::float8 as ${as}`;

/**
 * The iCalendar text of the feed a token opens (no credentials: the token is the secret):
 * confirmed and pending bookings that overlap [now - pastDays, now + futureDays], the
 * resource's own and those holding it as a related resource. 404 for an unknown or revoked token.
 */
export async function readCalendarFeed(ctx: Ctx, file: string, w: FeedWindow): Promise<string> {
  const token = file.endsWith('.ics') ? file.slice(0, -4) : file;
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw notFound('calendar feed');
  const pastDays = days(w.pastDays, 'pastDays', DEFAULT_PAST_DAYS, MAX_PAST_DAYS);
  const futureDays = days(w.futureDays, 'futureDays', DEFAULT_FUTURE_DAYS, MAX_FUTURE_DAYS);
  const conn = ctx.em.getConnection();
  const feeds = await conn.execute<
    { company_id: string; resource_id: string | null; company_name: string; time_zone: string; resource_name: string | null }[]
  >(
    `select f.company_id, f.resource_id, c.name as company_name, c.time_zone, r.name as resource_name
       from calendar_feed f join company c on c.id = f.company_id
       left join resource r on r.company_id = f.company_id and r.id = f.resource_id
      where f.token_hash = ?`,
    [hashToken(token)],
  );
  const feed = feeds[0];
  if (!feed) throw notFound('calendar feed');
  const now = ctx.now.getTime();
  const params: unknown[] = [
    feed.company_id,
    new Date(now + futureDays * DAY_MS).toISOString(),
    new Date(now - pastDays * DAY_MS).toISOString(),
  ];
  let scope = '';
  if (feed.resource_id) {
    scope = 'and (b.resource_id = ? or b.related_resource_ids @> to_jsonb(?::text))';
    params.push(feed.resource_id, feed.resource_id);
  }
  const rows = await conn.execute<Row[]>(
    `select b.id, b.status, ${ms('b.start_time', 'start_ms')}, ${ms('b.end_time', 'end_ms')}, ${ms('b.created_at', 'created_ms')},
            ${ms('b.updated_at', 'updated_ms')}, b.ical_sequence, b.spots, s.name as service_name, r.name as resource_name
       from booking b
       join service s on s.company_id = b.company_id and s.id = b.service_id
       join resource r on r.company_id = b.company_id and r.id = b.resource_id
      where b.company_id = ? and b.status in ('pending', 'confirmed')
        and b.start_time < ?::timestamptz and coalesce(b.end_time, b.start_time) >= ?::timestamptz ${scope}
      order by b.start_time, b.id limit ${MAX_EVENTS}`,
    params,
  );
  const events: FeedEvent[] = rows.map((r) => ({
    bookingId: r.id,
    status: r.status,
    startMs: Math.floor(r.start_ms),
    endMs: r.end_ms === null ? null : Math.floor(r.end_ms),
    sequence: r.ical_sequence,
    createdMs: Math.floor(r.created_ms),
    updatedMs: Math.floor(r.updated_ms),
    serviceName: r.service_name,
    resourceName: r.resource_name,
    spots: r.spots,
  }));
  return renderFeed({
    name: feed.resource_name ? `${feed.company_name}: ${feed.resource_name}` : feed.company_name,
    timeZone: feed.time_zone,
    host: new URL(ctx.deps.config.publicUrl).hostname,
    events,
  });
}
