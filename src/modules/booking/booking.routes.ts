import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { resourceSchema, serviceSchema, ticketSchema } from '../catalog/catalog.schemas';
import { clientSchema, guestClientSchema } from '../client/client.routes';
import { slotSchema } from '../scheduling/scheduling.schemas';
import { MAX_BATCH, requestBookings } from './booking-batch.service';
import { cancelClientBooking, clientBooking, clientBookings, requestBooking } from './client-booking.service';
import { createBooking, moveBooking, updateBooking } from './booking.service';
import { getBooking, listBookings } from './booking-query.service';
import { BOOKING_STATUSES } from './booking.status';
import { BOOKING_POLICIES } from '../catalog/catalog.checks';
import { SERVICE_TYPES } from '../../shared/service-type';
import { UPDATE_STRATEGIES } from '../scheduling/slot.service';

const status = S.oneOf(BOOKING_STATUSES);
const ticketsOut = {
  type: 'object',
  description: 'Tickets booked (ticket services) by ticket id: spots booked with each and its unit prices.',
  // GraphQL lists them with their ticketID; here the ticket id is the key
  additionalProperties: S.named('BookedTicket', S.out({ spots: S.int, price: S.int, comparedPrice: S.int })),
};
const statusChange = S.named(
  'BookingStatusChange',
  S.out({
    id: S.uuid,
    bookingID: S.uuid,
    oldStatus: S.nOneOf(BOOKING_STATUSES),
    newStatus: status,
    metaData: S.obj,
    createdAt: S.ts,
  }),
);

const clientBookingProps = {
  id: S.uuid,
  companyID: S.uuid,
  serviceID: S.uuid,
  resourceID: S.uuid,
  relatedResourceIDs: S.uuids,
  startTime: S.ts,
  endTime: S.nts,
  duration: S.nstr,
  spots: S.int,
  tickets: ticketsOut,
  price: S.int,
  currency: S.nstr,
  status,
  bookingPolicy: S.oneOf(BOOKING_POLICIES),
  type: S.oneOf(SERVICE_TYPES),
  accessToken: S.str,
  paymentURL: S.nstr,
  pluginData: S.obj,
  metaData: S.obj,
  createdAt: S.ts,
};
export const clientBookingSchema = S.named('ClientBooking', S.out(clientBookingProps));
export const bookingSchema = S.named(
  'Booking',
  S.out({
    ...clientBookingProps,
    clientID: { type: ['string', 'null'], format: 'uuid' },
    client: { anyOf: [clientSchema, { type: 'null' }] },
    service: { anyOf: [serviceSchema, { type: 'null' }] },
    resource: { anyOf: [resourceSchema, { type: 'null' }] },
    statusChanges: S.array(statusChange),
    rrule: S.nstr,
    recurringID: { type: ['string', 'null'] },
    clientInitiated: S.bool,
    refundPercent: S.nint,
    code: S.nstr,
    customPurchaseDescription: S.nstr,
    metaDataVersion: S.int,
    updatedAt: S.ts,
  }),
);
const blockedTime = S.named(
  'BlockedTime',
  S.out({ id: S.uuid, bookingID: S.uuid, resourceID: S.uuid, startTime: S.nts, endTime: S.nts, source: S.oneOf(['related_resource']) }),
);
const bookingPage = S.named(
  'BookingPage',
  S.out({
    blockedTimes: S.array(blockedTime),
    bookings: S.array(bookingSchema),
    clients: S.array(clientSchema),
    resources: S.array(resourceSchema),
    services: S.array(serviceSchema),
    slots: S.array(slotSchema),
    tickets: S.array(ticketSchema),
    limit: S.int,
    offset: S.int,
    total: S.int,
  }),
);

const repeat = S.named('BookingRepeatInput', S.object({ rrule: S.str, timeZone: S.str, until: S.str }, ['rrule', 'timeZone']));
const placement = {
  duration: S.str,
  metaData: S.obj,
  resourceID: S.str,
  serviceID: S.str,
  spots: S.int,
  startTime: S.str,
  tickets: { ...S.obj, description: 'Tickets to book (ticket services): spots by ticket id (`{"<ticketID>": 2}`).' },
};
const createBody = S.named(
  'CreateBookingInput',
  // notify's text is the GraphQL field's
  S.object({ ...placement, clientID: S.nstr, ignoreSchedule: S.bool, notify: S.bool, repeat }, ['resourceID', 'serviceID', 'startTime']),
);
const guest = guestClientSchema;
const requestBody = S.named(
  'RequestBookingInput',
  S.object(
    {
      ...placement,
      companyID: S.str,
      client: guest,
      code: S.nstr,
      customPurchaseDescription: S.nstr,
      pluginData: S.obj,
    },
    ['companyID', 'serviceID', 'startTime'],
  ),
);
const batchBody = S.named('RequestBookingsInput', S.object({ bookings: S.array(requestBody), client: guest }, ['bookings']));
const batchSchema = S.named(
  'BookingBatch',
  S.out({
    bookings: S.array(clientBookingSchema),
    currency: S.nstr,
    paymentURL: S.nstr,
    totalAmount: S.int,
    transactionID: { type: ['string', 'null'], format: 'uuid' },
  }),
);
const updateBody = S.named(
  'UpdateBookingInput',
  S.object({
    duration: S.str,
    metaDataUpdate: S.metaDataUpdate,
    price: S.int,
    refundPercent: S.int,
    resourceID: S.str,
    spots: S.int,
    startTime: S.str,
    status: S.choice(BOOKING_STATUSES),
  }),
);
const moveBody = S.named(
  'MoveBookingInput',
  S.object(
    {
      ignoreSchedule: S.bool,
      recalculatePrice: S.bool,
      recurringUpdateStrategy: S.choice(UPDATE_STRATEGIES),
      resourceID: S.str,
      startTime: S.str,
    },
    ['resourceID', 'startTime'],
  ),
);
const listQuery = S.named(
  'BookingFilter',
  S.object({
    clientID: S.str,
    from: S.str,
    to: S.str,
    includeFailures: S.str,
    limit: S.str,
    offset: S.str,
    resourceIDs: S.str,
    serviceIDs: S.str,
  }),
);
const clientPage = S.named(
  'ClientBookingPage',
  S.out({ bookings: S.array(clientBookingSchema), limit: S.int, offset: S.int, total: S.int }),
);
const cancelBody = S.named('CancelClientBookingInput', { properties: { metaData: S.obj }, additionalProperties: true });

const tokenQuery = S.object({
  accessToken: { ...S.str, description: "The booking's accessToken, for links; else send it as the X-Booking-Token header." },
});

const writeErrors = { ...errors, 409: S.error };

const idempotencyHeader = S.object({
  'Idempotency-Key': {
    type: 'string',
    description: '1 to 255 printable ASCII characters; a repeated key with the same body replays the first answer for 24 hours',
  },
});

type P = { cid: string; booking_id: string };
const params = (req: FastifyRequest) => req.params as P;
const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
/** A guest's booking token: `X-Booking-Token` header, else `?accessToken=`. */
const bookingToken = (req: FastifyRequest): string | undefined =>
  header(req, 'x-booking-token') ?? (req.query as { accessToken?: string } | undefined)?.accessToken;

const ADMIN = '/v1/companies/:cid/bookings';
const IDEMPOTENCY =
  'An `Idempotency-Key` header makes the request safe to repeat for 24 hours: the same key and body replay the first response; the same key with another body is 409.';
const TOKEN_AUTH =
  "Authorised by the client's bearer token, or by the booking's `accessToken` sent as the `X-Booking-Token` header (or the `accessToken` query parameter, for links).";

export function bookingRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'GET',
      url: ADMIN,
      operationId: 'listBookings',
      auth: 'key',
      summary: 'Get bookings',
      params: S.params('cid'),
      querystring: listQuery,
      response: { 200: bookingPage, ...errors },
      heavy: { lane: 'lists' },
      handler: (ctx, req) => listBookings(ctx, params(req).cid, req.query as object),
    },
    {
      method: 'POST',
      url: ADMIN,
      operationId: 'createBooking',
      auth: 'key',
      summary: `Create a booking. ${IDEMPOTENCY}`,
      params: S.params('cid'),
      body: createBody,
      headers: idempotencyHeader,
      response: { 200: bookingSchema, ...writeErrors },
      handler: (ctx, req) => createBooking(ctx, params(req).cid, req.body as object, { idempotencyKey: header(req, 'idempotency-key') }),
    },
    {
      method: 'GET',
      url: `${ADMIN}/:booking_id`,
      operationId: 'getBooking',
      auth: 'key',
      summary: 'Get one booking',
      params: S.params('cid', 'booking_id'),
      response: { 200: bookingSchema, ...errors },
      handler: (ctx, req) => getBooking(ctx, params(req).cid, params(req).booking_id),
    },
    {
      method: 'PATCH',
      url: `${ADMIN}/:booking_id`,
      operationId: 'updateBooking',
      auth: 'key',
      summary: 'Update booking',
      params: S.params('cid', 'booking_id'),
      body: updateBody,
      response: { 200: bookingSchema, ...writeErrors },
      handler: (ctx, req) => updateBooking(ctx, params(req).cid, params(req).booking_id, req.body as object),
    },
    {
      method: 'POST',
      url: `${ADMIN}/:booking_id/move`,
      operationId: 'moveBooking',
      auth: 'key',
      summary: 'Move a booking',
      params: S.params('cid', 'booking_id'),
      body: moveBody,
      response: { 200: bookingSchema, ...writeErrors },
      handler: (ctx, req) => moveBooking(ctx, params(req).cid, params(req).booking_id, req.body as object),
    },
    {
      method: 'GET',
      url: '/v1/client/bookings',
      operationId: 'listClientBookings',
      auth: 'bearer',
      summary: 'Get client bookings',
      querystring: S.object({ limit: S.str, offset: S.str }),
      response: { 200: clientPage, ...errors },
      handler: (ctx, req) => clientBookings(ctx, req.query as object),
    },
    {
      method: 'POST',
      url: '/v1/client/bookings',
      operationId: 'requestBooking',
      auth: 'key|bearer',
      summary: `Request booking. ${IDEMPOTENCY}`,
      body: requestBody,
      headers: idempotencyHeader,
      response: { 200: clientBookingSchema, ...writeErrors },
      handler: (ctx, req) => requestBooking(ctx, req.body as object, { idempotencyKey: header(req, 'idempotency-key') }),
    },
    {
      method: 'POST',
      url: '/v1/client/bookings/batch',
      operationId: 'requestBookings',
      auth: 'key|bearer',
      body: batchBody,
      headers: idempotencyHeader,
      summary: `Request multiple bookings with single payment: 1 to ${MAX_BATCH} booking requests of one company, written all or none, with one payment transaction covering every booking in request order. A guest's \`client\` object goes at the top level. ${IDEMPOTENCY}`,
      response: { 200: batchSchema, ...writeErrors },
      handler: (ctx, req) => requestBookings(ctx, req.body as object, { idempotencyKey: header(req, 'idempotency-key') }),
    },
    {
      method: 'GET',
      url: '/v1/client/bookings/:booking_id',
      operationId: 'getClientBooking',
      auth: 'optional',
      summary: `Get client booking. ${TOKEN_AUTH}`,
      params: S.params('booking_id'),
      querystring: tokenQuery,
      response: { 200: clientBookingSchema, ...errors },
      handler: (ctx, req) => clientBooking(ctx, params(req).booking_id, bookingToken(req)),
    },
    {
      method: 'POST',
      url: '/v1/client/bookings/:booking_id/cancel',
      operationId: 'cancelClientBooking',
      auth: 'optional',
      summary: `Cancel booking. ${TOKEN_AUTH}`,
      params: S.params('booking_id'),
      // The body is optional (no `type`, so an absent body passes); the service checks its shape.
      querystring: tokenQuery,
      body: cancelBody,
      response: { 200: clientBookingSchema, ...writeErrors },
      handler: (ctx, req) => cancelClientBooking(ctx, params(req).booking_id, req.body as object, bookingToken(req)),
    },
  ]);
}
