import { Entity, Property } from '@mikro-orm/core';
import { MetaEntity } from '../../shared/base.entity';
import type { ContractStatus, UsageStatus } from './giftcard.status';

/** A gift card a company sells or issues: its value, currency, tax and how long a sold card is valid. */
@Entity({ tableName: 'gift_card' })
export class GiftCard extends MetaEntity {
  @Property({ type: 'text' })
  title!: string;

  /** smallest currency unit */
  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  /** offered to clients (merchants can issue inactive cards) */
  @Property({ type: 'boolean' })
  active: boolean = true;

  @Property({ type: 'boolean', fieldName: 'tax_inclusive' })
  taxInclusive: boolean = false;

  @Property({ type: 'double', fieldName: 'tax_rate' })
  taxRate: number = 0;

  @Property({ type: 'timestamptz', fieldName: 'available_from', nullable: true })
  availableFrom: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'available_to', nullable: true })
  availableTo: Date | null = null;

  /** normalised ISO 8601; null: sold cards never expire */
  @Property({ type: 'text', fieldName: 'validity_duration', nullable: true })
  validityDuration: string | null = null;

  @Property({ type: 'integer', fieldName: 'validity_sec', nullable: true })
  validitySec: number | null = null;

  @Property({ type: 'timestamptz', fieldName: 'archived_at', nullable: true })
  archivedAt: Date | null = null;
}

/**
 * One card sold or issued: its code and balance. The balance changes only with a usage, in
 * one transaction, by a conditional update (see giftcard.store.ts).
 */
@Entity({ tableName: 'gift_card_contract' })
export class GiftCardContract extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'gift_card_id' })
  giftCardId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'integer' })
  balance!: number;

  @Property({ type: 'text' })
  status!: ContractStatus;

  @Property({ type: 'timestamptz', fieldName: 'expires_at', nullable: true })
  expiresAt: Date | null = null;

  @Property({ type: 'uuid', fieldName: 'payment_transaction_id', nullable: true })
  paymentTransactionId: string | null = null;

  @Property({ type: 'text', fieldName: 'payment_url', nullable: true })
  paymentUrl: string | null = null;
}

/** What was paid with a card: by a booking (`reservationId`) or recorded by the merchant. */
@Entity({ tableName: 'gift_card_usage' })
export class GiftCardUsage extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'contract_id' })
  contractId!: string;

  @Property({ type: 'uuid', fieldName: 'gift_card_id' })
  giftCardId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'uuid', fieldName: 'reservation_id', nullable: true })
  reservationId: string | null = null;

  @Property({ type: 'integer' })
  amount!: number;

  @Property({ type: 'text' })
  currency!: string;

  @Property({ type: 'text' })
  status!: UsageStatus;
}
