import { requireClient } from '../../kernel/access';
import { recordEvent } from '../../kernel/events';
import { companyForClientInterface, companyForMerchant } from '../company/company.access';
import { getClientInCompany, upsertGuestClient, type GuestClientInput } from '../client/client.lookup';
import type { Client } from '../client/client.entity';
import { startPayment, takesPayments } from '../payment/payment.api';
import { conflict, invalid, notFound, unauthorized } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { taxContained } from '../../shared/money';
import { parsePage } from '../../shared/pagination';
import { listSpec, ORM_ORDERS, type ConnectionArgs, type ConnectionJson } from '../../kernel/connection';
import { connectionFrom, ormSource } from '../../kernel/keyset';
import { formatTimestamp } from '../../shared/time';
import { Check } from '../../shared/validate';
import { insertContract } from './contract.service';
import { GiftCard, GiftCardContract, GiftCardUsage } from './giftcard.entity';
import { clientContractJson, contractJson, type ClientGiftCardContractJson, type GiftCardCheckoutResultJson } from './giftcard.json';
import { GIFT_CARD_ITEM, GIFT_CARD_NAMESPACE } from './giftcard.payable';
import { getGiftCardInCompany, onSale } from './giftcard.service';
import { inTransaction } from '../../kernel/transaction';
import type { Ctx } from '../../kernel/context';

/** Client interface: buying gift cards (`.../client/orders`) and reading one's own purchases. */

export const ORDERS_MAX_LIMIT = 100;

export interface PurchaseInput {
  client?: unknown;
  giftCardID?: unknown;
  giftCardId?: unknown;
  metaData?: unknown;
}

export interface ClientContractPageJson {
  giftCardContracts: ClientGiftCardContractJson[];
  total: number;
}

/**
 * Buys a card: a `pending_payment` contract and a payment through the company's preferred
 * provider (`itemType` gift_card, `pluginNamespace` giftcards, the card's tax settings). The
 * answer is the checkout result `{item, price, tax, taxRate, taxInclusive, currency,
 * expiresAt, paymentURL, transactionID}`: the contract, the card's amount as the price and the
 * tax it includes (as receipts split a payment), and the payment. The card becomes active when
 * the payment is paid and cancelled when it fails, is cancelled or expires. A client token buys
 * for its client; an API key with client.create buys for the guest in `client`. A card that is
 * not on sale is 400; a company that takes no payments sells no cards (409).
 */
export async function purchaseGiftCard(ctx: Ctx, companyId: string, input: PurchaseInput): Promise<GiftCardCheckoutResultJson> {
  if (!ctx.actor) throw unauthorized();
  const c = new Check();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) c.fail('body', 'must be an object');
  const body = input ?? {};
  const cardId = c.uuid('giftCardID', body.giftCardID ?? body.giftCardId, true);
  const metaData = c.metaData('metaData', body.metaData);
  c.done('invalid gift card purchase');
  let company;
  let client: Client | null = null;
  let guest: GuestClientInput | null = null;
  if (ctx.actor.kind === 'client') {
    company = await companyForClientInterface(ctx, companyId, 'client.create');
    client = await getClientInCompany(ctx, company.id, ctx.actor.clientId, { requireActive: true });
  } else {
    company = await companyForMerchant(ctx, companyId, 'client.create');
    if (body.client === undefined || body.client === null)
      throw invalid('a guest purchase needs a client object', [
        { path: 'client', message: 'is required when buying without a client token' },
      ]);
    guest = body.client as GuestClientInput;
  }
  const card = await getGiftCardInCompany(ctx, company.id, cardId);
  if (!onSale(card, ctx.now)) throw invalid('the gift card is not on sale', [{ path: 'giftCardID', message: 'is not on sale' }]);
  if (!(await takesPayments(ctx, company.id))) throw conflict('the company takes no payments, so it sells no gift cards');
  const { contract, payment } = await inTransaction(ctx, async (tx) => {
    const payer = guest ? await upsertGuestClient(tx, company.id, guest) : client!;
    const created = await insertContract(tx, {
      companyId: company.id,
      card,
      clientId: payer.id,
      status: 'pending_payment',
      expiresAt: null,
      metaData: metaData ?? {},
      now: ctx.now,
    });
    const payment = await startPayment(tx, {
      companyId: company.id,
      clientId: payer.id,
      email: payer.email,
      itemType: GIFT_CARD_ITEM,
      itemIDs: [created.id],
      perItemAmounts: { [created.id]: created.amount },
      amount: created.amount,
      currency: created.currency,
      taxInclusive: card.taxInclusive,
      taxRate: card.taxRate,
      pluginNamespace: GIFT_CARD_NAMESPACE,
      description: card.title,
      itemNames: { [created.id]: card.title },
    });
    if (!payment) throw conflict('the company takes no payments, so it sells no gift cards');
    created.paymentTransactionId = payment.transactionId;
    created.paymentUrl = payment.paymentURL;
    await tx.em.execute(
      'update gift_card_contract set payment_transaction_id = ?, payment_url = ? where company_id = ? and id = ?',
      [payment.transactionId, payment.paymentURL, company.id, created.id],
      'run',
    );
    await recordEvent(tx, { companyId: company.id, type: 'giftcard.purchased', payload: contractJson(created, ctx.now), at: ctx.now });
    return { contract: created, payment };
  });
  const price = contract.amount;
  return {
    item: clientContractJson(contract, card, [], ctx.now),
    price,
    // the tax contained in what is paid, rounded as receipts round it
    tax: taxContained(price, card.taxRate),
    taxRate: card.taxRate,
    taxInclusive: card.taxInclusive,
    currency: contract.currency,
    expiresAt: formatTimestamp(payment.expiresAt ?? null),
    paymentURL: payment.paymentURL,
    transactionID: payment.transactionId,
  };
}

/** The client forms of contracts, with their cards' names and usages in two more queries. */
async function clientForms(ctx: Ctx, companyId: string, contracts: GiftCardContract[]): Promise<ClientGiftCardContractJson[]> {
  if (!contracts.length) return [];
  const [cards, usages] = await Promise.all([
    ctx.em.find(GiftCard, { companyId, id: { $in: [...new Set(contracts.map((c) => c.giftCardId))] } }),
    ctx.em.find(
      GiftCardUsage,
      { companyId, contractId: { $in: contracts.map((c) => c.id) } },
      { orderBy: { createdAt: 'asc', id: 'asc' }, disableIdentityMap: true },
    ),
  ]);
  const cardById = new Map(cards.map((g) => [g.id, g]));
  return contracts.map((c) =>
    clientContractJson(
      c,
      cardById.get(c.giftCardId) ?? null,
      usages.filter((u) => u.contractId === c.id),
      ctx.now,
    ),
  );
}

async function ownCompany(ctx: Ctx, companyId: string) {
  const actor = requireClient(ctx);
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  return { company, clientId: actor.clientId };
}

/** Client: the calling client's gift card purchases, newest first. */
export async function clientOrders(
  ctx: Ctx,
  companyId: string,
  raw: { limit?: unknown; offset?: unknown },
): Promise<ClientContractPageJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const { limit, offset } = parsePage(raw, ORDERS_MAX_LIMIT);
  const [rows, total] = await ctx.em.findAndCount(
    GiftCardContract,
    { companyId: company.id, clientId },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset },
  );
  return { giftCardContracts: await clientForms(ctx, company.id, rows), total };
}

/** GraphQL: the calling client's purchases as a connection (kernel/connection.ts), newest first (then by id, descending). */
export async function clientOrdersConnection(
  ctx: Ctx,
  companyId: string,
  args: ConnectionArgs,
): Promise<ConnectionJson<ClientGiftCardContractJson>> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  const keys = ORM_ORDERS.newest.map((k) => ({ ...k, desc: true }));
  const source = ormSource(ctx.em, GiftCardContract, { companyId: company.id, clientId }, keys, (rows: GiftCardContract[]) =>
    clientForms(ctx, company.id, rows),
  );
  const spec = { ...listSpec(keys, 'clientGiftCardOrders', `${company.id}|${clientId}`), max: ORDERS_MAX_LIMIT };
  return connectionFrom(source, args, spec, 'giftCardContracts');
}

/** Client: one purchase of the calling client; anybody else's is 404. */
export async function clientOrder(ctx: Ctx, companyId: string, id: unknown): Promise<ClientGiftCardContractJson> {
  const { company, clientId } = await ownCompany(ctx, companyId);
  if (!isUuid(id)) throw invalid('item id must be a UUID', [{ path: 'itemID', message: 'must be a UUID' }]);
  const contract = await ctx.em.findOne(GiftCardContract, { companyId: company.id, clientId, id: id.toLowerCase() });
  if (!contract) throw notFound('gift card purchase');
  return (await clientForms(ctx, company.id, [contract]))[0];
}
