import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { adminDates, adminTimesBody, clientDates, clientTimesBody, type TimesInput } from './availability.service';

const price = S.out({ amount: S.int, comparedAmount: S.int, currency: S.str });
const counts = { type: 'object', additionalProperties: S.int };
/** The spot counts are sent for group and ticket services only. */
const entry = S.out(
  {
    startTime: S.ts,
    duration: S.str,
    price,
    spotsAvailable: S.int,
    totalSpots: S.int,
    bookedSpots: S.int,
    bookedSpotsPerTicket: counts,
    totalSpotsPerTicket: counts,
    ticketPrices: { type: 'object', additionalProperties: price },
  },
  ['spotsAvailable', 'totalSpots', 'bookedSpots', 'bookedSpotsPerTicket', 'totalSpotsPerTicket', 'ticketPrices'],
);
const timesResponse = S.out({ timeZone: S.str, times: { type: 'object', additionalProperties: S.array(entry) } });
const datesResponse = S.out({
  timeZone: S.str,
  dates: { type: 'object', additionalProperties: S.array({ type: 'string', format: 'date' }) },
});
const body = S.object(
  { from: S.str, to: S.str, resourceIDs: S.strs, duration: S.str, spots: S.int, tickets: S.obj, includePastTimes: S.bool },
  ['from', 'to'],
);
type P = { cid: string; service_id: string };

export function availabilityRoutes(app: FastifyInstance): void {
  const params = S.params('cid', 'service_id');
  defineRoutes(app, [
    {
      method: 'POST',
      url: '/v1/companies/:cid/services/:service_id/times',
      auth: 'key',
      summary: 'List available times',
      tags: ['availability'],
      params,
      body,
      response: { 200: timesResponse, ...errors },
      handler: (ctx, req) => adminTimesBody(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
    {
      method: 'POST',
      url: '/v1/companies/:cid/services/:service_id/dates',
      auth: 'key',
      summary: 'List available dates',
      tags: ['availability'],
      params,
      body,
      response: { 200: datesResponse, ...errors },
      handler: (ctx, req) => adminDates(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
    {
      method: 'POST',
      url: '/v1/client/companies/:cid/services/:service_id/times',
      auth: 'key|bearer',
      summary: 'Get available times for service',
      tags: ['client'],
      params,
      body,
      response: { 200: timesResponse, ...errors },
      handler: (ctx, req) => clientTimesBody(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
    {
      method: 'POST',
      url: '/v1/client/companies/:cid/services/:service_id/dates',
      auth: 'key|bearer',
      summary: 'Get available dates for service',
      tags: ['client'],
      params,
      body,
      response: { 200: datesResponse, ...errors },
      handler: (ctx, req) => clientDates(ctx, (req.params as P).cid, (req.params as P).service_id, req.body as TimesInput),
    },
  ]);
}
