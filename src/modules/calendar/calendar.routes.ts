import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { defineRoutes, errors, S, type RouteDef } from '../../kernel/rest';
import {
  createCalendarFeed,
  DEFAULT_FUTURE_DAYS,
  DEFAULT_PAST_DAYS,
  MAX_EVENTS,
  MAX_FUTURE_DAYS,
  MAX_PAST_DAYS,
  readCalendarFeed,
  revokeCalendarFeed,
  type FeedWindow,
} from './calendar.service';

const feedUrl = S.named('CalendarFeed', S.out({ url: S.str }));
const companyParams = S.params('cid');
const resourceParams = S.params('cid', 'resource_id');
type Params = { cid: string; resource_id?: string };
const Scope = (scope: string) => `${scope[0].toUpperCase()}${scope.slice(1)}`;
const resourceOf = (req: FastifyRequest) => (req.params as Params).resource_id ?? null;

/** True when `If-None-Match` names `etag` (or is `*`); weak validators compare by their opaque part. */
export function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const tags = [header]
    .flat()
    .join(',')
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''));
  return tags.includes('*') || tags.includes(etag);
}

function sendFeed(req: FastifyRequest, reply: FastifyReply, text: string): string | FastifyReply {
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  // the URL is the credential: no shared cache may keep it
  reply.header('etag', etag).header('cache-control', 'private, max-age=0, must-revalidate');
  if (matchesEtag(req.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type('text/calendar; charset=utf-8');
  return text;
}

export function calendarRoutes(app: FastifyInstance): void {
  const issue = (url: string, scope: string, params: Record<string, unknown>): RouteDef => ({
    method: 'POST',
    url,
    auth: 'key',
    summary: `Create ${scope} calendar feed`,
    operationId: `create${Scope(scope)}CalendarFeed`,
    description:
      `Issues the secret iCalendar URL of ${scope === 'resource' ? "a resource's" : "the company's"} bookings (bookings.write). Only a hash ` +
      'of its token is stored, so the URL is shown once; issuing again replaces the previous URL.',
    params,
    response: { 201: feedUrl, ...errors },
    status: 201,
    handler: async (ctx, req) => createCalendarFeed(ctx, (req.params as Params).cid, resourceOf(req)),
  });
  const revoke = (url: string, scope: string, params: Record<string, unknown>): RouteDef => ({
    method: 'DELETE',
    url,
    auth: 'key',
    summary: `Revoke ${scope} calendar feed`,
    operationId: `revoke${Scope(scope)}CalendarFeed`,
    description: 'Revokes the feed URL (bookings.write); the old URL answers 404 from then on. 404 when no feed was issued.',
    params,
    response: { 204: { type: 'null', description: 'revoked' }, ...errors },
    status: 204,
    handler: async (ctx, req) => revokeCalendarFeed(ctx, (req.params as Params).cid, resourceOf(req)),
  });
  defineRoutes(app, [
    issue('/v1/companies/:cid/resources/:resource_id/calendar-feed', 'resource', resourceParams),
    revoke('/v1/companies/:cid/resources/:resource_id/calendar-feed', 'resource', resourceParams),
    issue('/v1/companies/:cid/calendar-feed', 'company', companyParams),
    revoke('/v1/companies/:cid/calendar-feed', 'company', companyParams),
    {
      method: 'GET',
      url: '/v1/calendar/:feed_id',
      operationId: 'readCalendarFeed',
      auth: 'none',
      summary: 'Read calendar feed',
      description:
        'The feed a secret URL opens, as iCalendar (RFC 5545, `text/calendar`): confirmed (CONFIRMED) and pending (TENTATIVE) bookings that ' +
        `overlap the window from pastDays (default ${DEFAULT_PAST_DAYS}, at most ${MAX_PAST_DAYS}) before now to futureDays (default ` +
        `${DEFAULT_FUTURE_DAYS}, at most ${MAX_FUTURE_DAYS}) after, at most ${MAX_EVENTS} events; cancelled and other bookings are left out. ` +
        'Times are in the company time zone (with its VTIMEZONE), UIDs are `<booking id>@<server host>`, and SEQUENCE grows whenever a booking ' +
        'moves. Answers carry an ETag; `If-None-Match` with it answers 304 while nothing changed. Unknown or revoked URLs answer 404.',
      // the feed's secret id: the token of its URL, `.ics` included
      params: S.params('feed_id'),
      querystring: S.object({
        pastDays: { ...S.str, description: `Days before now the feed covers (default ${DEFAULT_PAST_DAYS}, at most ${MAX_PAST_DAYS}).` },
        futureDays: {
          ...S.str,
          description: `Days after now the feed covers (default ${DEFAULT_FUTURE_DAYS}, at most ${MAX_FUTURE_DAYS}).`,
        },
      }),
      response: {
        200: { type: 'string', description: 'the iCalendar text (text/calendar)' },
        304: { type: 'null', description: 'not modified: the feed is as the ETag in If-None-Match' },
        400: errors[400],
        404: errors[404],
      },
      handler: async (ctx, req, reply) =>
        sendFeed(req, reply, await readCalendarFeed(ctx, (req.params as { feed_id: string }).feed_id, req.query as FeedWindow)),
    },
  ]);
}
