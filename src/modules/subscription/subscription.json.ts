import type { MetaData } from '../../shared/metadata';
import { formatTimestamp } from '../../shared/time';
import type {
  Limitations,
  RecurringInterval,
  RollOverSettings,
  Subscription,
  SubscriptionCapacityRule,
  SubscriptionContract,
  SubscriptionPriceRule,
  SubscriptionSettings,
  SubscriptionUsage,
  SubscriptionVisit,
  UsageStatus,
  VisitTransactionType,
} from './subscription.entity';
import { effectiveStatus, type ContractStatus } from './subscription.status';

/** REST JSON of the subscription records; GraphQL resolvers return the same objects (subscription.types.ts). */

export interface SubscriptionJson {
  id: string;
  companyID: string;
  title: string;
  duration: string | null;
  availableFrom: string | null;
  availableTo: string | null;
  limitations: Limitations;
  rRule: string | null;
  recurringConfig: MetaData | null;
  recurringEnabled: boolean;
  recurringInterval: RecurringInterval | null;
  recurringIntervalCount: number | null;
  recurringProvider: string | null;
  renewPeriod: string | null;
  serviceIDs: string[];
  resourceIDs: string[];
  ticketIDs: string[];
  rollOverSettings: RollOverSettings;
  metaData: MetaData;
  metaDataVersion: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const common = (r: { metaData: MetaData; metaDataVersion: number; createdAt: Date; updatedAt: Date }) => ({
  metaData: r.metaData ?? {},
  metaDataVersion: r.metaDataVersion,
  createdAt: formatTimestamp(r.createdAt)!,
  updatedAt: formatTimestamp(r.updatedAt)!,
});

export function subscriptionJson(s: Subscription): SubscriptionJson {
  return {
    id: s.id,
    companyID: s.companyId,
    title: s.title,
    duration: s.duration,
    availableFrom: formatTimestamp(s.availableFrom),
    availableTo: formatTimestamp(s.availableTo),
    limitations: s.limitations ?? {},
    rRule: s.rRule,
    recurringConfig: s.recurringConfig,
    recurringEnabled: s.recurringEnabled,
    recurringInterval: s.recurringInterval,
    recurringIntervalCount: s.recurringIntervalCount,
    recurringProvider: s.recurringProvider,
    renewPeriod: s.renewPeriod,
    serviceIDs: s.serviceIds ?? [],
    resourceIDs: s.resourceIds ?? [],
    ticketIDs: s.ticketIds ?? [],
    rollOverSettings: s.rollOverSettings,
    archivedAt: formatTimestamp(s.archivedAt),
    ...common(s),
  };
}

export interface SettingsJson {
  id: string | null;
  companyID: string;
  cartExpiration: string;
  currency: string | null;
  taxInclusive: boolean;
  taxRate: number;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export function settingsJson(s: SubscriptionSettings): SettingsJson {
  return {
    id: s.id,
    companyID: s.companyId,
    cartExpiration: s.cartExpiration,
    currency: s.currency,
    taxInclusive: s.taxInclusive,
    taxRate: s.taxRate,
    ...common(s),
  };
}

interface RuleJsonBase {
  id: string;
  companyID: string;
  subscriptionIDs: string[];
  priority: number;
  startDate: string | null;
  endDate: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PriceRuleJson extends RuleJsonBase {
  price: number;
  comparedPrice: number | null;
}

export interface CapacityRuleJson extends RuleJsonBase {
  maxCount: number;
}

const ruleBase = (r: SubscriptionPriceRule | SubscriptionCapacityRule): RuleJsonBase => ({
  id: r.id,
  companyID: r.companyId,
  subscriptionIDs: r.subscriptionIds ?? [],
  priority: r.priority,
  startDate: formatTimestamp(r.startDate),
  endDate: formatTimestamp(r.endDate),
  archivedAt: formatTimestamp(r.archivedAt),
  ...common(r),
});

export const priceRuleJson = (r: SubscriptionPriceRule): PriceRuleJson => ({
  ...ruleBase(r),
  price: r.price,
  comparedPrice: r.comparedPrice,
});
export const capacityRuleJson = (r: SubscriptionCapacityRule): CapacityRuleJson => ({ ...ruleBase(r), maxCount: r.maxCount });

export interface UsageJson {
  id: string;
  contractID: string;
  subscriptionID: string;
  clientID: string | null;
  companyID: string;
  bookingID: string | null;
  source: string;
  status: UsageStatus;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export const usageJson = (u: SubscriptionUsage): UsageJson => ({
  id: u.id,
  contractID: u.contractId,
  subscriptionID: u.subscriptionId,
  clientID: u.clientId,
  companyID: u.companyId,
  bookingID: u.bookingId,
  source: u.source,
  status: u.status,
  ...common(u),
});

export interface ContractJson {
  id: string;
  companyID: string;
  subscriptionID: string;
  clientID: string | null;
  code: string;
  status: ContractStatus;
  activeFrom: string | null;
  expiresAt: string | null;
  pendingExpiresAt: string | null;
  duration: string | null;
  limitations: Limitations;
  serviceIDs: string[];
  resourceIDs: string[];
  price: number;
  currency: string | null;
  periodStart: string | null;
  periodEnd: string | null;
  paymentURL: string | null;
  usages: UsageJson[];
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export function contractJson(c: SubscriptionContract, usages: SubscriptionUsage[], now: Date): ContractJson {
  const status = effectiveStatus(c, now);
  return {
    id: c.id,
    companyID: c.companyId,
    subscriptionID: c.subscriptionId,
    clientID: c.clientId,
    code: c.code,
    status,
    activeFrom: formatTimestamp(c.activeFrom),
    expiresAt: formatTimestamp(c.expiresAt),
    pendingExpiresAt: formatTimestamp(c.pendingExpiresAt),
    duration: c.duration,
    limitations: c.limitations ?? {},
    serviceIDs: c.serviceIds ?? [],
    resourceIDs: c.resourceIds ?? [],
    price: c.price,
    currency: c.currency,
    periodStart: formatTimestamp(c.periodStart),
    periodEnd: formatTimestamp(c.periodEnd),
    paymentURL: status === 'pending_payment' ? c.paymentUrl : null,
    usages: usages.map(usageJson),
    ...common(c),
  };
}

export interface VisitJson {
  id: string;
  companyID: string;
  subscriptionID: string;
  subscriptionItemID: string;
  clientID: string | null;
  amount: number;
  transactionType: VisitTransactionType;
  expiresAt: string | null;
  reason: string | null;
  sourceAllocationID: string | null;
  usageID: string | null;
  periodStart: string | null;
  metaData: MetaData;
  createdAt: string;
  updatedAt: string;
}

export const visitJson = (v: SubscriptionVisit): VisitJson => ({
  id: v.id,
  companyID: v.companyId,
  subscriptionID: v.subscriptionId,
  subscriptionItemID: v.contractId,
  clientID: v.clientId,
  amount: v.amount,
  transactionType: v.transactionType,
  expiresAt: formatTimestamp(v.expiresAt),
  reason: v.reason,
  sourceAllocationID: v.sourceAllocationId,
  usageID: v.usageId,
  periodStart: formatTimestamp(v.periodStart),
  metaData: v.metaData ?? {},
  createdAt: formatTimestamp(v.createdAt)!,
  updatedAt: formatTimestamp(v.updatedAt)!,
});

/** A subscription as clients are offered it: the price of the highest-priority active price rule, the settings' currency. */
export interface OfferedSubscriptionJson {
  id: string;
  title: string;
  duration: string | null;
  availableFrom: string | null;
  availableTo: string | null;
  limitations: Limitations;
  rRule: string | null;
  recurringEnabled: boolean;
  recurringInterval: RecurringInterval | null;
  recurringIntervalCount: number | null;
  recurringProvider: string | null;
  serviceIDs: string[];
  resourceIDs: string[];
  rollOverSettings: RollOverSettings;
  price: number;
  comparedPrice: number | null;
  currency: string | null;
  metaData: MetaData;
}

export function offeredJson(s: Subscription, rule: SubscriptionPriceRule, currency: string | null): OfferedSubscriptionJson {
  const j = subscriptionJson(s);
  return {
    id: j.id,
    title: j.title,
    duration: j.duration,
    availableFrom: j.availableFrom,
    availableTo: j.availableTo,
    limitations: j.limitations,
    rRule: j.rRule,
    recurringEnabled: j.recurringEnabled,
    recurringInterval: j.recurringInterval,
    recurringIntervalCount: j.recurringIntervalCount,
    recurringProvider: j.recurringProvider,
    serviceIDs: j.serviceIDs,
    resourceIDs: j.resourceIDs,
    rollOverSettings: j.rollOverSettings,
    price: rule.price,
    comparedPrice: rule.comparedPrice,
    currency,
    metaData: j.metaData,
  };
}
