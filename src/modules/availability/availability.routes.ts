import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { adminDates, adminTimesBody, clientDates, clientTimesBody, type TimesInput } from './availability.service';

const price = S.named('Price', S.out({ amount: S.int, comparedAmount: S.int, currency: S.str }));
const counts = (description: string) => ({ type: 'object', description, additionalProperties: S.int });
/** The spot counts are sent for group and ticket services only. */
const entry = S.named(
  'AvailableTime',
  S.out(
    {
      startTime: S.ts,
      duration: S.str,
      price,
      spotsAvailable: S.int,
      totalSpots: S.int,
      bookedSpots: S.int,
      bookedSpotsPerTicket: counts('Spots booked per ticket id (ticket services).'),
      totalSpotsPerTicket: counts('Spots per ticket id in total (ticket services).'),
      ticketPrices: { type: 'object', description: 'Price of one spot per ticket id (ticket services).', additionalProperties: price },
    },
    ['spotsAvailable', 'totalSpots', 'bookedSpots', 'bookedSpotsPerTicket', 'totalSpotsPerTicket', 'ticketPrices'],
  ),
);
const timesResponse = S.named(
  'AvailableTimes',
  S.out({
    timeZone: S.str,
    times: { type: 'object', description: 'The times of each resource, by resource id.', additionalProperties: S.array(entry) },
  }),
);
const datesResponse = S.named(
  'AvailableDates',
  S.out({
    timeZone: S.str,
    dates: {
      type: 'object',
      description: 'The dates with at least one available time (`YYYY-MM-DD`, company time zone), by resource id.',
      additionalProperties: S.array({ type: 'string', format: 'date' }),
    },
  }),
);
const body = S.named(
  'AvailableTimesInput',
  S.object(
    {
      from: S.str,
      to: S.str,
      resourceIDs: S.strs,
      duration: S.str,
      spots: S.int,
      tickets: { ...S.obj, description: 'Tickets to book (ticket services): spots by ticket id (`{"<ticketID>": 2}`).' },
      includePastTimes: S.bool,
    },
    ['from', 'to'],
  ),
);
type P = { cid: string; service_id: string };

const gzipAsync = promisify(gzip);
/** Answers at least this long are compressed for clients that accept gzip. */
export const COMPRESS_FROM_BYTES = 64 * 1024;

/**
 * A times answer (JSON bytes) gzipped at level 1 when it is large and the client accepts gzip:
 * the month of 20 resources shrinks from 808 KB to 27 KB for about 1.5 ms of CPU, which pays
 * off on any link slower than loopback. The compression runs on the libuv thread pool, off the
 * event loop.
 */
async function maybeCompressed(req: FastifyRequest, reply: FastifyReply, body: Promise<unknown>): Promise<Buffer> {
  const answer = await body;
  // an answer object (no worker threads configured) is written as the routes' serialiser would
  const bytes = Buffer.isBuffer(answer) ? answer : Buffer.from(JSON.stringify(answer));
  reply.header('vary', 'accept-encoding');
  if (bytes.byteLength < COMPRESS_FROM_BYTES || !/\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''))) return bytes;
  const packed = await gzipAsync(bytes, { level: 1 });
  reply.header('content-encoding', 'gzip');
  return packed;
}

export function availabilityRoutes(app: FastifyInstance): void {
  const params = S.params('cid', 'service_id');
  defineRoutes(app, [
    {
      method: 'POST',
      url: '/v1/companies/:cid/services/:service_id/times',
      operationId: 'listAvailableTimes',
      auth: 'key',
      summary: 'List available times',
      db: 'read',
      params,
      body,
      response: { 200: timesResponse, ...errors },
      handler: (ctx, req, reply) =>
        maybeCompressed(req, reply, adminTimesBody(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput)),
    },
    {
      method: 'POST',
      url: '/v1/companies/:cid/services/:service_id/dates',
      operationId: 'listAvailableDates',
      auth: 'key',
      summary: 'List available dates',
      db: 'read',
      params,
      body,
      response: { 200: datesResponse, ...errors },
      handler: (ctx, req) => adminDates(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
    {
      method: 'POST',
      url: '/v1/client/companies/:cid/services/:service_id/times',
      operationId: 'listClientAvailableTimes',
      auth: 'key|bearer',
      summary: 'Get available times for service',
      db: 'read',
      params,
      body,
      response: { 200: timesResponse, ...errors },
      handler: (ctx, req, reply) =>
        maybeCompressed(req, reply, clientTimesBody(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput)),
    },
    {
      method: 'POST',
      url: '/v1/client/companies/:cid/services/:service_id/dates',
      operationId: 'listClientAvailableDates',
      auth: 'key|bearer',
      summary: 'Get available dates for service',
      db: 'read',
      params,
      body,
      response: { 200: datesResponse, ...errors },
      handler: (ctx, req) => clientDates(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
  ]);
}
