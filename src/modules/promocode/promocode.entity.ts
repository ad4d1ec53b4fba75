import { Entity, Property } from '@mikro-orm/core';
import { MetaEntity } from '../../shared/base.entity';
import type { DiscountType, UsageType } from './discount';
import type { PromoUsageStatus } from './promo-usage.status';

/**
 * A promo code of a company. `currentUsageCount` counts the usages that are reserved or used;
 * it changes only inside a booking's transaction, under this row's lock.
 */
@Entity({ tableName: 'promo_code' })
export class PromoCode extends MetaEntity {
  @Property({ type: 'text' })
  title!: string;

  /** as the merchant wrote it; matched case-insensitively */
  @Property({ type: 'text' })
  code!: string;

  @Property({ type: 'text', nullable: true })
  description: string | null = null;

  @Property({ type: 'boolean' })
  active: boolean = true;

  @Property({ type: 'timestamptz', fieldName: 'active_from', nullable: true })
  activeFrom: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'active_to', nullable: true })
  activeTo: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'reservation_allowance_from', nullable: true })
  reservationAllowanceFrom: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'reservation_allowance_to', nullable: true })
  reservationAllowanceTo: Date | null = null;

  @Property({ type: 'text', fieldName: 'discount_type' })
  discountType!: DiscountType;

  @Property({ type: 'integer', fieldName: 'discount_amount', nullable: true })
  discountAmount: number | null = null;

  @Property({ type: 'double', fieldName: 'discount_percent', nullable: true })
  discountPercent: number | null = null;

  @Property({ type: 'integer', fieldName: 'max_discount_amount', nullable: true })
  maxDiscountAmount: number | null = null;

  @Property({ type: 'json', fieldName: 'service_ids' })
  serviceIds: string[] = [];

  @Property({ type: 'text', fieldName: 'usage_type' })
  usageType: UsageType = 'unlimited';

  @Property({ type: 'integer', fieldName: 'usage_limit', nullable: true })
  usageLimit: number | null = null;

  @Property({ type: 'integer', fieldName: 'current_usage_count' })
  currentUsageCount: number = 0;

  @Property({ type: 'timestamptz', fieldName: 'archived_at', nullable: true })
  archivedAt: Date | null = null;
}

/** One use of a promo code by a booking (`reservationId`). Written with SQL in the booking's transaction. */
@Entity({ tableName: 'promo_usage' })
export class PromoUsage extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'promo_code_id' })
  promoCodeId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  /** the booking */
  @Property({ type: 'uuid', fieldName: 'reservation_id', nullable: true })
  reservationId: string | null = null;

  /** the usage type of the code when it was used */
  @Property({ type: 'text', fieldName: 'usage_type' })
  usageType!: UsageType;

  @Property({ type: 'integer', fieldName: 'discount_amount' })
  discountAmount: number = 0;

  @Property({ type: 'text', nullable: true })
  currency: string | null = null;

  @Property({ type: 'text' })
  status!: PromoUsageStatus;
}
