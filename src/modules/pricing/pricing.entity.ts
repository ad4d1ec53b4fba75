import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';
import type { DiscountRuleInput } from './engine/types';
import type { LimitationInput } from '../../shared/limitation';
import type { ServiceType } from '../../shared/service-type';

@Entity({ tableName: 'price_rule' })
export class PriceRule extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'text' })
  type!: ServiceType;

  @Property({ type: 'integer' })
  priority!: number;

  @Property({ type: 'integer' })
  price!: number;

  @Property({ type: 'integer', fieldName: 'compared_price', nullable: true })
  comparedPrice: number | null = null;

  @Property({ type: 'integer', fieldName: 'duration_sec', nullable: true })
  durationSec: number | null = null;

  @Property({ type: 'integer', fieldName: 'min_duration_sec', nullable: true })
  minDurationSec: number | null = null;

  @Property({ type: 'integer', fieldName: 'max_duration_sec', nullable: true })
  maxDurationSec: number | null = null;

  @Property({ type: 'uuid', fieldName: 'ticket_id', nullable: true })
  ticketId: string | null = null;

  @Property({ type: 'json', nullable: true })
  limitation: LimitationInput | null = null;
}

@Entity({ tableName: 'discount' })
export class Discount extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'text' })
  type!: 'ticket' | 'spots';

  @Property({ type: 'integer' })
  priority!: number;

  @Property({ type: 'boolean', fieldName: 'sums_up' })
  sumsUp: boolean = false;

  @Property({ type: 'json' })
  rules: DiscountRuleInput[] = [];

  @Property({ type: 'json', nullable: true })
  limitation: LimitationInput | null = null;
}
