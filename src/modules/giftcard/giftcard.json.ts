import type { MetaData } from '../../shared/metadata';
import { formatTimestamp } from '../../shared/time';
import type { GiftCard, GiftCardContract, GiftCardUsage } from './giftcard.entity';
import { effectiveStatus, type ContractStatus, type UsageStatus } from './giftcard.status';

/** REST JSON of gift cards, contracts and usages; GraphQL resolvers return the same objects. */

export interface GiftCardJson {
  id: string;
  companyID: string;
  title: string;
  amount: number;
  currency: string;
  active: boolean;
  taxInclusive: boolean;
  taxRate: number;
  availableFrom: string | null;
  availableTo: string | null;
  validityDuration: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface GiftCardContractJson {
  id: string;
  giftCardId: string;
  clientId: string | null;
  companyId: string;
  code: string | null;
  amount: number;
  currency: string;
  balance: number;
  status: ContractStatus;
  expiresAt: string | null;
  validUntil: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export interface GiftCardUsageJson {
  id: string;
  purchaseId: string;
  giftCardId: string;
  clientId: string | null;
  companyId: string;
  reservationId: string | null;
  amount: number;
  currency: string;
  status: UsageStatus;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a purchase answers (the specification's checkout result): the client form of the new
 * contract, what is paid (the card's amount, smallest currency unit) and the tax it includes
 * at the card's rate, the card's tax settings, and the payment's expiry, URL and id.
 */
export interface GiftCardCheckoutResultJson {
  item: ClientGiftCardContractJson;
  price: number;
  tax: number;
  taxRate: number;
  taxInclusive: boolean;
  currency: string;
  expiresAt: string | null;
  paymentURL: string | null;
  transactionID: string | null;
}

/** The client form: the card's name, its usages and, while unpaid, the payment URL; the code only once paid. */
export interface ClientGiftCardContractJson extends GiftCardContractJson {
  giftCardName: string;
  usages: GiftCardUsageJson[];
  paymentURL: string | null;
}

export function giftCardJson(g: GiftCard): GiftCardJson {
  return {
    id: g.id,
    companyID: g.companyId,
    title: g.title,
    amount: g.amount,
    currency: g.currency,
    active: g.active,
    taxInclusive: g.taxInclusive,
    taxRate: g.taxRate,
    availableFrom: formatTimestamp(g.availableFrom),
    availableTo: formatTimestamp(g.availableTo),
    validityDuration: g.validityDuration,
    metaData: g.metaData ?? {},
    metaDataVersion: g.metaDataVersion,
    archivedAt: formatTimestamp(g.archivedAt),
    createdAt: formatTimestamp(g.createdAt)!,
    updatedAt: formatTimestamp(g.updatedAt)!,
  };
}

/** A contract as it stands at `now` (an active card past its validity shows `expired`). */
export function contractJson(c: GiftCardContract, now: Date): GiftCardContractJson {
  return {
    id: c.id,
    giftCardId: c.giftCardId,
    clientId: c.clientId,
    companyId: c.companyId,
    code: c.code,
    amount: c.amount,
    currency: c.currency,
    balance: c.balance,
    status: effectiveStatus(c.status, c.expiresAt, now),
    expiresAt: formatTimestamp(c.expiresAt),
    validUntil: formatTimestamp(c.expiresAt),
    metaData: c.metaData ?? {},
    metaDataVersion: c.metaDataVersion,
    createdAt: formatTimestamp(c.createdAt)!,
    updatedAt: formatTimestamp(c.updatedAt)!,
  };
}

export function usageJson(u: GiftCardUsage): GiftCardUsageJson {
  return {
    id: u.id,
    purchaseId: u.contractId,
    giftCardId: u.giftCardId,
    clientId: u.clientId,
    companyId: u.companyId,
    reservationId: u.reservationId,
    amount: u.amount,
    currency: u.currency,
    status: u.status,
    metaData: u.metaData ?? {},
    metaDataVersion: u.metaDataVersion,
    createdAt: formatTimestamp(u.createdAt)!,
    updatedAt: formatTimestamp(u.updatedAt)!,
  };
}

/** Unpaid or cancelled purchases do not show their code: it is only worth something once paid. */
const codeVisible = (s: ContractStatus): boolean => s !== 'pending_payment' && s !== 'cancelled';

export function clientContractJson(
  c: GiftCardContract,
  card: GiftCard | null,
  usages: GiftCardUsage[],
  now: Date,
): ClientGiftCardContractJson {
  const json = contractJson(c, now);
  return {
    ...json,
    code: codeVisible(c.status) ? c.code : null,
    giftCardName: card?.title ?? '',
    usages: usages.map(usageJson),
    paymentURL: c.status === 'pending_payment' ? c.paymentUrl : null,
  };
}
