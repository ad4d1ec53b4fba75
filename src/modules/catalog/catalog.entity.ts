import { Entity, Property } from '@mikro-orm/core';
import { MetaEntity, TenantEntity } from '../../shared/base.entity';
import type { ServiceType } from '../../shared/service-type';

/** Service settings as stored: durations normalised ISO 8601, times HH:MM. */
export interface ServiceSettings {
  availabilityPeriod?: string | null;
  bookingPolicy?: 'instant' | 'manual';
  bufferBefore?: string | null;
  bufferAfter?: string | null;
  checkInTime?: string | null;
  checkOutTime?: string | null;
  currency?: string | null;
  duration?: string | null;
  timeInterval?: string | null;
  tax?: { inclusive: boolean; rate: number } | null;
}

@Entity({ tableName: 'service' })
export class Service extends MetaEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  type!: ServiceType;

  @Property({ type: 'text', nullable: true })
  color: string | null = null;

  @Property({ type: 'integer' })
  position: number = 0;

  @Property({ type: 'json' })
  settings: ServiceSettings = {};

  @Property({ type: 'timestamptz', fieldName: 'disabled_at', nullable: true })
  disabledAt: Date | null = null;
}

@Entity({ tableName: 'resource' })
export class Resource extends MetaEntity {
  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text', nullable: true })
  color: string | null = null;

  @Property({ type: 'json', fieldName: 'related_resource_ids' })
  relatedResourceIDs: string[] = [];

  @Property({ type: 'timestamptz', fieldName: 'disabled_at', nullable: true })
  disabledAt: Date | null = null;
}

export interface RelatedResources {
  all: string[];
  any: string[];
}

@Entity({ tableName: 'service_resource_link' })
export class ServiceResourceLink extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @Property({ type: 'json', fieldName: 'related_resource_ids' })
  relatedResourceIDs: RelatedResources = { all: [], any: [] };
}

@Entity({ tableName: 'ticket' })
export class Ticket extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'boolean' })
  enabled: boolean = true;
}
