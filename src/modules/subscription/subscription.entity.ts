import { ArrayType, Entity, Property } from '@mikro-orm/core';
import { MetaEntity, TenantEntity } from '../../shared/base.entity';
import type { MetaData } from '../../shared/metadata';
import type { ContractStatus } from './subscription.status';

/** Usage statuses: `reserved` while the booking is pending, `used` once confirmed, `cancelled` when it was cancelled or failed. */
export const USAGE_STATUSES = ['reserved', 'used', 'cancelled'] as const;
export type UsageStatus = (typeof USAGE_STATUSES)[number];

/**
 * Ledger entry types. `ALLOCATION` (+) grants a period's visits, `USAGE` (-) a booking covered,
 * `REVERSAL` (+) gives back a usage whose booking was cancelled or failed, `EXPIRATION` (-) removes
 * what is left unused when a period or allocation lapses, `ROLLOVER` (+) carries unused visits
 * into a new period, `ADJUSTMENT` (+/-) is a merchant's correction.
 */
export const VISIT_TRANSACTION_TYPES = ['ALLOCATION', 'USAGE', 'REVERSAL', 'EXPIRATION', 'ROLLOVER', 'ADJUSTMENT'] as const;
export type VisitTransactionType = (typeof VISIT_TRANSACTION_TYPES)[number];

export const RECURRING_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

export const ROLL_OVER_TYPES = ['none', 'all', 'capped'] as const;
export type RollOverType = (typeof ROLL_OVER_TYPES)[number];

/** A time window of a day in the company's zone, `HH:MM`, start before end. */
export interface TimeWindow {
  startTime: string;
  endTime: string;
}

/**
 * What a contract allows per booking and per period. `daysOfWeek` is the contract's 7-bit mask
 * used everywhere in the API (shared/zone.ts `weekdayBit`): Mon 64, Tue 32, Wed 16, Thu 8, Fri 4,
 * Sat 2, Sun 1 (127 = every day; 0 or absent = any day). Times are `HH:MM` in the company's zone,
 * `endTime` may be `24:00`. Absent keys mean no limit.
 */
export interface Limitations {
  bookingsCount?: number | null;
  daysOfWeek?: number | null;
  maxDuration?: string | null;
  maxSpotsPerBooking?: number | null;
  maxTicketsPerBooking?: Record<string, number> | null;
  times?: TimeWindow[] | null;
}

/** What happens to unused visits at a period change: `none` lapse, `all` carry over, `capped` carry at most `settings.maxVisits`. */
export interface RollOverSettings {
  rollOverType: RollOverType;
  settings: { maxVisits?: number } & Record<string, unknown>;
}

const uuidArray = (fieldName: string) => ({ type: ArrayType, columnType: 'uuid[]', fieldName }) as const;

/** A membership a company sells: its period, limitations, recurrence and what it covers. */
@Entity({ tableName: 'subscription' })
export class Subscription extends MetaEntity {
  @Property({ type: 'text' })
  title!: string;

  /** ISO 8601 duration of one period (of the contract when not recurring) */
  @Property({ type: 'text', nullable: true })
  duration: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'available_from', nullable: true })
  availableFrom: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'available_to', nullable: true })
  availableTo: Date | null = null;

  @Property({ type: 'json' })
  limitations: Limitations = {};

  @Property({ type: 'text', fieldName: 'rrule', nullable: true })
  rRule: string | null = null;

  @Property({ type: 'json', fieldName: 'recurring_config', nullable: true })
  recurringConfig: MetaData | null = null;

  @Property({ type: 'boolean', fieldName: 'recurring_enabled' })
  recurringEnabled: boolean = false;

  @Property({ type: 'text', fieldName: 'recurring_interval', nullable: true })
  recurringInterval: RecurringInterval | null = null;

  @Property({ type: 'integer', fieldName: 'recurring_interval_count', nullable: true })
  recurringIntervalCount: number | null = null;

  @Property({ type: 'text', fieldName: 'recurring_provider', nullable: true })
  recurringProvider: string | null = null;

  @Property({ type: 'text', fieldName: 'renew_period', nullable: true })
  renewPeriod: string | null = null;

  @Property(uuidArray('service_ids'))
  serviceIds: string[] = [];

  @Property(uuidArray('resource_ids'))
  resourceIds: string[] = [];

  @Property(uuidArray('ticket_ids'))
  ticketIds: string[] = [];

  @Property({ type: 'json', fieldName: 'roll_over_settings' })
  rollOverSettings: RollOverSettings = { rollOverType: 'none', settings: {} };

  @Property({ type: 'timestamptz', fieldName: 'archived_at', nullable: true })
  archivedAt: Date | null = null;
}

/** One row per company: cart expiry, currency and tax of its subscriptions. */
@Entity({ tableName: 'subscription_settings' })
export class SubscriptionSettings extends MetaEntity {
  /** ISO 8601 duration a cart item holds capacity */
  @Property({ type: 'text', fieldName: 'cart_expiration' })
  cartExpiration: string = 'PT15M';

  @Property({ type: 'text', nullable: true })
  currency: string | null = null;

  @Property({ type: 'boolean', fieldName: 'tax_inclusive' })
  taxInclusive: boolean = false;

  @Property({ type: 'double', fieldName: 'tax_rate' })
  taxRate: number = 0;
}

/** Fields shared by price and capacity rules: which subscriptions, priority, date range, archive. */
abstract class SubscriptionRule extends MetaEntity {
  @Property(uuidArray('subscription_ids'))
  subscriptionIds: string[] = [];

  @Property({ type: 'integer' })
  priority: number = 0;

  @Property({ type: 'timestamptz', fieldName: 'start_date', nullable: true })
  startDate: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'end_date', nullable: true })
  endDate: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'archived_at', nullable: true })
  archivedAt: Date | null = null;
}

/** The price of subscriptions while the rule is active (highest priority wins). */
@Entity({ tableName: 'subscription_price_rule' })
export class SubscriptionPriceRule extends SubscriptionRule {
  /** smallest currency unit */
  @Property({ type: 'integer' })
  price!: number;

  @Property({ type: 'integer', fieldName: 'compared_price', nullable: true })
  comparedPrice: number | null = null;
}

/** How many contracts of the subscriptions may be active or pending at once while the rule is active. */
@Entity({ tableName: 'subscription_capacity_rule' })
export class SubscriptionCapacityRule extends SubscriptionRule {
  @Property({ type: 'integer', fieldName: 'max_count' })
  maxCount!: number;
}

/** One membership of one client: code, status, validity, the current period and what it allows (copied at creation). */
@Entity({ tableName: 'subscription_contract' })
export class SubscriptionContract extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'subscription_id' })
  subscriptionId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text' })
  status!: ContractStatus;

  @Property({ type: 'timestamptz', fieldName: 'active_from', nullable: true })
  activeFrom: Date | null = null;

  /** end of the contract */
  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt: Date | null = null;

  /** when a `pending_payment` contract lapses (cart expiry) */
  @Property({ type: 'timestamptz', fieldName: 'pending_expires_at', nullable: true })
  pendingExpiresAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  duration: string | null = null;

  @Property({ type: 'json' })
  limitations: Limitations = {};

  @Property(uuidArray('service_ids'))
  serviceIds: string[] = [];

  @Property(uuidArray('resource_ids'))
  resourceIds: string[] = [];

  @Property(uuidArray('ticket_ids'))
  ticketIds: string[] = [];

  /** smallest currency unit */
  @Property({ type: 'integer' })
  price: number = 0;

  @Property({ type: 'text', nullable: true })
  currency: string | null = null;

  @Property({ type: 'boolean', fieldName: 'tax_inclusive' })
  taxInclusive: boolean = false;

  @Property({ type: 'double', fieldName: 'tax_rate' })
  taxRate: number = 0;

  @Property({ type: 'integer', fieldName: 'tax_amount' })
  taxAmount: number = 0;

  @Property({ type: 'timestamptz', fieldName: 'period_start', nullable: true })
  periodStart: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'period_end', nullable: true })
  periodEnd: Date | null = null;

  /** 0 for the first period, +1 per renewal */
  @Property({ type: 'integer', fieldName: 'period_index' })
  periodIndex: number = 0;

  /** still in the client's cart (not checked out) */
  @Property({ type: 'boolean', fieldName: 'in_cart' })
  inCart: boolean = false;

  @Property({ type: 'uuid', fieldName: 'payment_transaction_id', nullable: true })
  paymentTransactionId: string | null = null;

  @Property({ type: 'text', fieldName: 'payment_url', nullable: true })
  paymentUrl: string | null = null;

  @Property({ type: 'uuid', fieldName: 'renewal_transaction_id', nullable: true })
  renewalTransactionId: string | null = null;

  @Property({ type: 'text', fieldName: 'renewal_payment_url', nullable: true })
  renewalPaymentUrl: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'renewed_at', nullable: true })
  renewedAt: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'cancelled_at', nullable: true })
  cancelledAt: Date | null = null;
}

/** A booking covered by a contract. */
@Entity({ tableName: 'subscription_usage' })
export class SubscriptionUsage extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'contract_id' })
  contractId!: string;

  @Property({ type: 'uuid', fieldName: 'subscription_id' })
  subscriptionId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'uuid', fieldName: 'booking_id', nullable: true })
  bookingId: string | null = null;

  @Property({ type: 'text' })
  source: string = 'booking';

  @Property({ type: 'text' })
  status!: UsageStatus;
}

/**
 * One ledger entry (append-only: written only by ledger.service.ts, never updated or deleted;
 * the database refuses both). Positive amounts grant visits, negative ones take them.
 */
@Entity({ tableName: 'subscription_visit' })
export class SubscriptionVisit extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'contract_id' })
  contractId!: string;

  @Property({ type: 'uuid', fieldName: 'subscription_id' })
  subscriptionId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text', fieldName: 'transaction_type' })
  transactionType!: VisitTransactionType;

  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'text', nullable: true })
  reason: string | null = null;

  @Property({ type: 'uuid', fieldName: 'source_allocation_id', nullable: true })
  sourceAllocationId: string | null = null;

  @Property({ type: 'uuid', fieldName: 'usage_id', nullable: true })
  usageId: string | null = null;

  @Property({ type: 'timestamptz', fieldName: 'period_start', nullable: true })
  periodStart: Date | null = null;

  @Property({ type: 'json', fieldName: 'meta_data' })
  metaData: MetaData = {};
}

export const subscriptionEntities = [
  Subscription,
  SubscriptionSettings,
  SubscriptionPriceRule,
  SubscriptionCapacityRule,
  SubscriptionContract,
  SubscriptionUsage,
  SubscriptionVisit,
];
