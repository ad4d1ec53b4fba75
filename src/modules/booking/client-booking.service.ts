import { requireClient } from '../../kernel/access';
import { companyForClientInterface, companyForMerchant } from '../company/company.access';
import { invalid, unauthorized, notFound } from '../../shared/errors';
import { formatLocalTime } from '../../shared/time';
import { Check } from '../../shared/validate';
import type { Resource, Service } from '../catalog/catalog.entity';
import { getServiceInCompany } from '../catalog/catalog.lookup';
import type { Client } from '../client/client.entity';
import { getClientInCompany, upsertGuestClient, type GuestClientInput } from '../client/client.lookup';
import type { Company } from '../company/company.entity';
import type { StartedPayment } from '../payment/payment.api';
import { unavailable, type BookingRow, bookingOf, writeBooking, type Placement } from './booking.store';
import { idempotencyOf, type Idempotency } from './idempotency';
import { amountsFor, checkPlacement, checkPluginData, type PlacementInput } from './booking.checks';
import { clientBookingJson, type ClientBookingJson } from './booking.json';
import { startBookingPayment, type BookingPaymentInput } from './booking.payable';
import { newRow, placeAt, serviceAndResource, commitCreation, needsTransaction, replayOr } from './booking-placement.service';
import { bookingSnapshotOptions } from '../availability/availability.service';
import type { PreloadedSnapshot } from '../availability/snapshot';
import { commitChecked, keptCheck, placeKept } from './booking-kept-catalog';
import { isUuid } from '../../shared/ids';
import { parsePage } from '../../shared/pagination';
import { listTag, type ConnectionArgs, type ConnectionJson, type SortKey } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { verifyBookingAccessToken } from './access-token';
import { applyChanges, copyOf } from './booking-changes.service';
import { Booking } from './booking.entity';
import { BOOKINGS_MAX_LIMIT } from './booking-query.service';
import { transition } from './booking.status';
import { applyCodes, checkCodes, followCodes, resolveCodes, type BookingCode } from './booking-codes.service';
import type { Ctx } from '../../kernel/context';

/**
 * Client booking requests. The single request and the batch share every rule here: the
 * field checks, the placement of one booking, its payment and the write of one booking
 * inside a given transaction.
 */

export interface RequestBookingInput {
  client?: unknown;
  code?: unknown;
  companyID?: unknown;
  customPurchaseDescription?: unknown;
  duration?: unknown;
  metaData?: unknown;
  pluginData?: unknown;
  resourceID?: unknown;
  serviceID?: unknown;
  spots?: unknown;
  startTime?: unknown;
  tickets?: unknown;
}

/** Who books: the token's client, or a guest object sent with an API key holding client.create. */
export interface Caller {
  company: Company;
  client: Client | null;
  guest: GuestClientInput | null;
  /** who the request hash is bound to */
  id: string;
}

export async function caller(ctx: Ctx, companyId: string, guest: unknown): Promise<Caller> {
  if (!ctx.actor) throw unauthorized();
  if (ctx.actor.kind === 'client') {
    const company = await companyForClientInterface(ctx, companyId, 'client.create');
    const client = await getClientInCompany(ctx, company.id, ctx.actor.clientId, { requireActive: true });
    return { company, client, guest: null, id: `client:${client.id}` };
  }
  const company = await companyForMerchant(ctx, companyId, 'client.create');
  if (guest === undefined || guest === null)
    throw invalid('a guest request needs a client object', [
      { path: 'client', message: 'is required when booking without a client token' },
    ]);
  return { company, client: null, guest: guest as GuestClientInput, id: `merchant:${company.merchantId}` };
}

/** One booking request after its field checks. */
export interface ParsedRequest {
  companyId: string | undefined;
  p: PlacementInput;
  code: string | undefined;
  pluginData: Record<string, unknown> | undefined;
  description: string | undefined;
}

/** The field checks of one booking request; `self` is the path reported when it is not an object. */
export function checkRequest(c: Check, input: unknown, self = 'body'): ParsedRequest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail(self, 'must be an object');
  const body = (typeof input === 'object' && input !== null ? input : {}) as RequestBookingInput;
  return {
    companyId: c.uuid('companyID', body.companyID, true),
    p: checkPlacement(c, body, false),
    code: c.string('code', body.code, { max: 255 }),
    pluginData: checkPluginData(c, body.pluginData),
    description: c.string('customPurchaseDescription', body.customPurchaseDescription, { max: 1000 }),
  };
}

/**
 * Client interface: requests a booking at a time the availability endpoints offer (never in
 * the past, schedule always applied). Without `resourceID` the first available linked resource
 * by name is booked. When the company takes payments and the price is above zero the booking
 * is `pending` with a `paymentURL`; otherwise its status follows the bookingPolicy.
 */
export async function requestBooking(
  ctx: Ctx,
  input: RequestBookingInput,
  opts: { idempotencyKey?: unknown } = {},
): Promise<ClientBookingJson> {
  const c = new Check();
  const req = checkRequest(c, input);
  c.done('invalid booking request');

  const who = await caller(ctx, req.companyId!, input.client);
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.request', who.id, input ?? {});
  return replayOr(ctx, who.company.id, idem, () => book(ctx, who, req, idem));
}

async function book(ctx: Ctx, who: Caller, req: ParsedRequest, idem: Idempotency | undefined): Promise<ClientBookingJson> {
  const b = await prepareClientBooking(ctx, who, req, { kept: true });
  if (!b.catalogVersion) return commitBooking(ctx, who, b, idem);
  return commitChecked(
    { companyId: who.company.id, serviceId: b.service.id, resourceId: b.row.resourceId, start: b.row.start },
    () => commitBooking(ctx, who, b, idem),
    async () => commitBooking(ctx, who, await prepareClientBooking(ctx, who, req), idem),
  );
}

function commitBooking(ctx: Ctx, who: Caller, b: PreparedBooking, idem: Idempotency | undefined): Promise<ClientBookingJson> {
  const single = !needsTransaction(b.row.type, b.placement) && !who.guest && b.row.price <= 0 && !b.codes.length;
  return commitCreation(ctx, who.company.id, idem, single, async (tx) => {
    const client = await payerOf(tx, who);
    await applyBookingCodes(tx, b, client);
    const payment = b.due > 0 ? await startBookingPayment(tx, paymentFor(who.company.id, [b], client)) : null;
    return writeClientBooking(tx, b, client, payment);
  });
}

/** A client booking whose time was found bookable, ready to be written. */
export interface PreparedBooking {
  service: Service;
  row: BookingRow;
  placement: Placement;
  /** what the payment provider shows for this booking */
  description: string;
  /** the codes of the request, in lookup order */
  codes: BookingCode[];
  /** the price before codes */
  basePrice: number;
  /** what is left to pay once the codes apply (`row.price` is the price after discounts) */
  due: number;
  /** the company's time zone (codes read days and times of day in it) */
  timeZone: string;
  /** checked against the kept catalog at this version (booking-kept-catalog.ts): the insert verifies it */
  catalogVersion?: string;
}

/**
 * Checks one request against the catalog and availability (outside the transaction: the
 * check is for a friendly answer, the database constraints decide when the row is written).
 * With `kept`, a booking the kept catalog can check is checked against it and carries the
 * catalog version its insert must still find (booking-kept-catalog.ts; commit it with `commitChecked`).
 */
export async function prepareClientBooking(
  ctx: Ctx,
  who: Caller,
  req: ParsedRequest,
  opts: { kept?: boolean } = {},
): Promise<PreparedBooking> {
  const { company } = who;
  const { p } = req;
  if (opts.kept) {
    const checked = p.resourceId ? await keptCheck(ctx, company.id, p.serviceId!, p.resourceId, p.start!, p.durationSec) : null;
    const placed = await placeKept(checked, (c) => placeClientBooking(ctx, company, c.service, c.resource, p, c.preloaded));
    if (checked && placed) return clientBookingOf(ctx, who, req, checked.service, placed, checked.version);
  }
  const [service, resource, preloaded] = p.resourceId
    ? await serviceAndResource(ctx, company.id, p.serviceId!, p.resourceId, {
        company,
        opts: bookingSnapshotOptions(p.start!, p.resourceId, p.durationSec),
      })
    : [await getServiceInCompany(ctx, company.id, p.serviceId), null, null];
  return clientBookingOf(ctx, who, req, service, await placeClientBooking(ctx, company, service, resource, p, preloaded));
}

/** Where a client booking goes, or 409 (never in the past, schedule always applied). */
async function placeClientBooking(
  ctx: Ctx,
  company: Company,
  service: Service,
  resource: Resource | null,
  p: PlacementInput,
  preloaded: PreloadedSnapshot | null,
): Promise<Placement> {
  if (resource?.disabledAt) throw unavailable('the resource is not available');
  const amounts = amountsFor(service, p);
  const placement = await placeAt(ctx, company, service, resource?.id ?? null, p.start!, p, amounts, {
    ignoreSchedule: false,
    includePast: false,
    preloaded,
  });
  if (placement.start < ctx.now.getTime()) throw unavailable('the requested time is in the past');
  return placement;
}

/** The row of a placed client booking, priced with its codes. */
async function clientBookingOf(
  ctx: Ctx,
  who: Caller,
  { p, code, pluginData, description }: ParsedRequest,
  service: Service,
  placement: Placement,
  catalogVersion?: string,
): Promise<PreparedBooking> {
  const { company } = who;
  const row = newRow(company, service, placement, ctx.now, {
    clientId: who.client?.id ?? null,
    clientInitiated: true,
    metaData: p.metaData ?? {},
    pluginData: pluginData ?? {},
    code: code || null,
    customPurchaseDescription: description ?? null,
  });
  const codes = await resolveCodes(ctx, company.id, code);
  const priced = codes.length
    ? await checkCodes(ctx, codes, row, who.client?.id ?? null, company.timeZone)
    : { price: row.price, due: row.price };
  const basePrice = row.price;
  row.price = priced.price;
  return {
    service,
    row,
    placement,
    description: description ?? `${service.name}, ${formatLocalTime(row.start, company.timeZone)}`,
    codes,
    basePrice,
    due: priced.due,
    timeZone: company.timeZone,
    catalogVersion,
  };
}

/**
 * Applies a prepared booking's codes in its transaction, with the paying client: the price
 * and what is due are what the codes' locked records allow now (the pre-check may be stale).
 */
export async function applyBookingCodes(ctx: Ctx, b: PreparedBooking, client: Client | null): Promise<void> {
  if (!b.codes.length) return;
  const priced = await applyCodes(ctx, b.codes, b.row, b.basePrice, client?.id ?? null, b.timeZone);
  b.row.price = priced.price;
  b.due = priced.due;
}

/** The paying client: the token's client, or the guest, found or created in the booking's transaction. */
export async function payerOf(ctx: Ctx, who: Caller): Promise<Client | null> {
  return who.guest ? upsertGuestClient(ctx, who.company.id, who.guest) : who.client;
}

const MAX_DESCRIPTION = 1000;

/**
 * The payment of prepared bookings: their prices in order, the currency and tax of the first
 * priced one (a batch checks that they agree), and the first custom purchase description,
 * else the bookings' own descriptions.
 */
export function paymentFor(companyId: string, bookings: PreparedBooking[], client: Client | null): BookingPaymentInput {
  const first = bookings.find((b) => b.due > 0) ?? bookings[0];
  const tax = first.service.settings?.tax;
  const custom = bookings.find((b) => b.row.customPurchaseDescription !== null)?.row.customPurchaseDescription;
  let description = custom ?? bookings.map((b) => b.description).join('; ');
  if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION - 3)}...`;
  return {
    companyId,
    bookings: bookings.map((b) => ({ id: b.row.id, amount: b.due, name: b.row.customPurchaseDescription ?? b.description })),
    clientId: client?.id ?? null,
    email: client?.email ?? null,
    currency: first.row.currency ?? 'EUR',
    taxInclusive: tax?.inclusive ?? false,
    taxRate: tax?.rate ?? 0,
    description,
  };
}

/**
 * Writes one prepared client booking with `ctx` (in a transaction unless the booking is a
 * single statement) and returns its client form. With a `payment` covering it the booking is
 * `pending` until that payment settles; without one its status follows the bookingPolicy.
 */
export async function writeClientBooking(
  ctx: Ctx,
  b: PreparedBooking,
  client: Client | null,
  payment: StartedPayment | null,
): Promise<ClientBookingJson> {
  const { row } = b;
  row.clientId = client?.id ?? null;
  if (payment) Object.assign(row, { status: 'pending', paymentUrl: payment.paymentURL, paymentTransactionId: payment.transactionId });
  await writeBooking(ctx, row, b.placement, ctx.deps.jwtKey, b.catalogVersion);
  // Usages start reserved; a booking confirmed at once uses them at once.
  if (b.codes.length)
    await followCodes(ctx.deps.codes, ctx, row.companyId, [{ id: row.id, code: row.code, from: null, to: row.status }], ctx.now);
  return clientBookingJson(bookingOf(row), ctx.deps.jwtKey);
}

/**
 * The client interface's own bookings. A booking is reached with the client's access token
 * (only that client's bookings exist for it), or with the booking's `accessToken` (guests have
 * no login): as the `X-Booking-Token` header, or `?accessToken=` for links in e-mails. Anything
 * else that does not match is 404, so nobody learns whether another person's booking exists.
 */

export interface ClientBookingPageJson {
  bookings: ClientBookingJson[];
  limit: number;
  offset: number;
  total: number;
}

/** The booking a client-interface call may see. */
export async function reachableBooking(ctx: Ctx, id: unknown, accessToken: unknown): Promise<Booking> {
  if (!isUuid(id)) throw invalid('booking id must be a UUID', [{ path: 'bookingID', message: 'must be a UUID' }]);
  const bookingId = id.toLowerCase();
  if (accessToken !== undefined && accessToken !== null && accessToken !== '') {
    const b = verifyBookingAccessToken(ctx.deps.jwtKey, bookingId, accessToken)
      ? await ctx.em.findOne(Booking, { id: bookingId }, { disableIdentityMap: true })
      : null;
    if (!b) throw notFound('booking');
    return b;
  }
  const actor = requireClient(ctx);
  const b = await ctx.em.findOne(
    Booking,
    { id: bookingId, companyId: actor.companyId, clientId: actor.clientId },
    { disableIdentityMap: true },
  );
  if (!b) throw notFound('booking');
  return b;
}

/** Client: the calling client's bookings, ordered by startTime then id. */
export async function clientBookings(ctx: Ctx, raw: { limit?: unknown; offset?: unknown }): Promise<ClientBookingPageJson> {
  const actor = requireClient(ctx);
  const page = parsePage(raw, BOOKINGS_MAX_LIMIT);
  const where = { companyId: actor.companyId, clientId: actor.clientId };
  const [rows, total] = await Promise.all([
    ctx.em.find(Booking, where, {
      orderBy: { startTime: 'asc', id: 'asc' },
      limit: page.limit,
      offset: page.offset,
      disableIdentityMap: true,
    }),
    ctx.em.count(Booking, where),
  ]);
  return { bookings: rows.map((b) => clientBookingJson(b, ctx.deps.jwtKey)), limit: page.limit, offset: page.offset, total };
}

/** The client's bookings as a connection (kernel/connection.ts), by keyset on (startTime, id). */
export async function clientBookingsConnection(ctx: Ctx, args: ConnectionArgs): Promise<ConnectionJson<ClientBookingJson>> {
  const actor = requireClient(ctx);
  const keys: SortKey<ClientBookingJson>[] = [
    { column: 'startTime', time: true, of: (b) => b.startTime },
    { column: 'id', of: (b) => b.id },
  ];
  const spec = { tag: listTag('clientBookings', `${actor.companyId}|${actor.clientId}`), keys, max: BOOKINGS_MAX_LIMIT };
  const where = { companyId: actor.companyId, clientId: actor.clientId };
  const json = (rows: Booking[]) => rows.map((b) => clientBookingJson(b, ctx.deps.jwtKey));
  return connectionFrom(ormSource(ctx.em, Booking, where, keys, json, { disableIdentityMap: true }), args, spec, 'bookings');
}

/** Client: one booking (own, or by its access token). */
export async function clientBooking(ctx: Ctx, id: unknown, accessToken?: unknown): Promise<ClientBookingJson> {
  return clientBookingJson(await reachableBooking(ctx, id, accessToken), ctx.deps.jwtKey);
}

/** Client: cancels a booking; `metaData` is merged into the booking's metadata. */
export async function cancelClientBooking(
  ctx: Ctx,
  id: unknown,
  input: { metaData?: unknown } | null | undefined,
  accessToken?: unknown,
): Promise<ClientBookingJson> {
  const c = new Check();
  if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) c.fail('body', 'must be an object');
  const metaData = c.metaData('metaData', input?.metaData);
  c.done('invalid cancellation');
  const before = await reachableBooking(ctx, id, accessToken);
  transition(before.status, 'cancelled');
  const after = copyOf(before);
  after.status = 'cancelled';
  if (metaData && Object.keys(metaData).length) {
    after.metaData = { ...(after.metaData ?? {}), ...metaData };
    if (c.metaData('metaData', after.metaData) === undefined) c.done('invalid cancellation');
    after.metaDataVersion += 1;
  }
  await applyChanges(ctx, [{ before, after, statusMeta: { source: 'client', ...(metaData ? { metaData } : {}) } }]);
  return clientBookingJson(after, ctx.deps.jwtKey);
}
