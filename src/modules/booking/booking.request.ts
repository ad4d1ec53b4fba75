import type { Ctx } from '../../app/context';
import { companyForClientInterface, companyForMerchant } from '../../app/access';
import { invalid, unauthorized } from '../../shared/errors';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { getResourceInCompany, getServiceInCompany } from '../catalog/catalog.lookup';
import type { Client } from '../client/client.entity';
import { getClientInCompany, upsertGuestClient, type GuestClientInput } from '../client/client.lookup';
import type { Company } from '../company/company.entity';
import { unavailable } from './booking.hold';
import { idempotencyOf } from './booking.idempotency';
import { amountsFor, checkPlacement, checkPluginData } from './booking.input';
import { clientBookingJson, type ClientBookingJson } from './booking.json';
import { startBookingPayment } from './booking.payment';
import { newRow, placeAt } from './booking.create';
import { bookingOf, commitCreation, needsTransaction, writeBooking } from './booking.write';

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
async function caller(ctx: Ctx, companyId: string, guest: unknown): Promise<{ company: Company; client: Client | null; guest: GuestClientInput | null; id: string }> {
  if (!ctx.actor) throw unauthorized();
  if (ctx.actor.kind === 'client') {
    const company = await companyForClientInterface(ctx, companyId, 'client.create');
    const client = await getClientInCompany(ctx, company.id, ctx.actor.clientId, { requireActive: true });
    return { company, client, guest: null, id: `client:${client.id}` };
  }
  const company = await companyForMerchant(ctx, companyId, 'client.create');
  if (guest === undefined || guest === null) throw invalid('a guest request needs a client object', [{ path: 'client', message: 'is required when booking without a client token' }]);
  return { company, client: null, guest: guest as GuestClientInput, id: `merchant:${company.merchantId}` };
}

/**
 * Client interface: requests a booking at a time the availability endpoints offer (never in
 * the past, schedule always applied). Without `resourceID` the first available linked resource
 * by name is booked. When the company takes payments and the price is above zero the booking
 * is `pending` with a `paymentURL`; otherwise its status follows the bookingPolicy.
 */
export async function requestBooking(ctx: Ctx, input: RequestBookingInput, opts: { idempotencyKey?: unknown } = {}): Promise<ClientBookingJson> {
  const c = new Check();
  if (typeof input !== 'object' || input === null) c.fail('body', 'must be an object');
  const body = input ?? {};
  const companyId = c.uuid('companyID', body.companyID, true);
  const p = checkPlacement(c, body, false);
  const code = c.string('code', body.code, { max: 255 });
  const pluginData = checkPluginData(c, body.pluginData);
  const description = c.string('customPurchaseDescription', body.customPurchaseDescription, { max: 1000 });
  c.done('invalid booking request');
  // Codes are applied by the promo code, gift card and subscription work; none exists yet.
  if (code) throw invalid('unknown code', [{ path: 'code', message: 'unknown code' }]);

  const who = await caller(ctx, companyId!, body.client);
  const { company } = who;
  const idem = idempotencyOf(opts.idempotencyKey, 'booking.request', who.id, body);
  const [service, resource] = await Promise.all([
    getServiceInCompany(ctx, company.id, p.serviceId),
    p.resourceId ? getResourceInCompany(ctx, company.id, p.resourceId) : Promise.resolve(null),
  ]);
  if (resource?.disabledAt) throw unavailable('the resource is not available');
  const amounts = amountsFor(service, p);
  const placement = await placeAt(ctx, company, service, resource?.id ?? null, p.start!, p, amounts, { ignoreSchedule: false, includePast: false });
  if (placement.start < ctx.now.getTime()) throw unavailable('the requested time is in the past');
  const row = newRow(company, service, placement, ctx.now, {
    clientId: who.client?.id ?? null,
    clientInitiated: true,
    metaData: p.metaData ?? {},
    pluginData: pluginData ?? {},
    code: code || null,
    customPurchaseDescription: description ?? null,
  });
  const single = !needsTransaction(row.type, placement) && !who.guest && row.price <= 0;
  return commitCreation(ctx, company.id, idem, single, async (em) => {
    const client = who.guest ? await upsertGuestClient({ ...ctx, em }, company.id, who.guest) : who.client;
    row.clientId = client?.id ?? null;
    if (row.price > 0) {
      const tax = service.settings?.tax;
      const started = await startBookingPayment(ctx, em, {
        companyId: company.id,
        bookingId: row.id,
        clientId: row.clientId,
        email: client?.email ?? null,
        amount: row.price,
        currency: row.currency ?? 'EUR',
        taxInclusive: tax?.inclusive ?? false,
        taxRate: tax?.rate ?? 0,
        description: description ?? `${service.name}, ${formatTimestamp(row.start)}`,
      });
      if (started) Object.assign(row, { status: 'pending', paymentUrl: started.paymentURL, paymentTransactionId: started.transactionId });
    }
    await writeBooking(em, row, placement);
    return clientBookingJson(bookingOf(row), ctx.deps.jwtKey);
  });
}
