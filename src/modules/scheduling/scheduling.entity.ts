import { Entity, Property } from '@mikro-orm/core';
import { TenantEntity } from '../../shared/base.entity';
import type { LimitationInput } from '../../shared/limitation';

/** A day pattern as stored: normalised (one entry per distinct hours list, hours sorted and merged). */
export interface StoredWorkingDay {
  daysOfWeek: number;
  hours: { start: string; end: string }[];
}

@Entity({ tableName: 'working_hours_rule' })
export class WorkingHoursRule extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @Property({ type: 'json', fieldName: 'service_ids' })
  serviceIds: string[] = [];

  @Property({ type: 'timestamptz', fieldName: 'start_time', nullable: true })
  startTime: Date | null = null;

  @Property({ type: 'timestamptz', fieldName: 'end_time', nullable: true })
  endTime: Date | null = null;

  @Property({ type: 'integer' })
  priority: number = 0;

  @Property({ type: 'json', fieldName: 'working_hours' })
  workingHours: StoredWorkingDay[] = [];
}

@Entity({ tableName: 'closing_period' })
export class ClosingPeriod extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @Property({ type: 'json', fieldName: 'service_ids' })
  serviceIds: string[] = [];

  @Property({ type: 'timestamptz', fieldName: 'start_time' })
  startTime!: Date;

  @Property({ type: 'timestamptz', fieldName: 'end_time' })
  endTime!: Date;

  @Property({ type: 'integer' })
  priority: number = 0;
}

@Entity({ tableName: 'capacity_rule' })
export class CapacityRule extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'text' })
  type!: 'group' | 'ticket';

  @Property({ type: 'integer' })
  priority: number = 0;

  @Property({ type: 'integer' })
  spots!: number;

  @Property({ type: 'json', fieldName: 'spots_per_ticket' })
  spotsPerTicket: Record<string, number> = {};

  @Property({ type: 'json', nullable: true })
  limitation: LimitationInput | null = null;
}

@Entity({ tableName: 'slot' })
export class Slot extends TenantEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  /** null: the slot applies to every resource linked to the service */
  @Property({ type: 'uuid', fieldName: 'resource_id', nullable: true })
  resourceId: string | null = null;

  /** first occurrence (the series' DTSTART) */
  @Property({ type: 'timestamptz', fieldName: 'start_time' })
  startTime!: Date;

  @Property({ type: 'integer', fieldName: 'duration_sec' })
  durationSec!: number;

  /** RRULE body (`FREQ=WEEKLY;BYDAY=SA,SU`); null for a single slot */
  @Property({ type: 'text', nullable: true })
  rrule: string | null = null;

  /** IANA zone whose wall clock the series follows; set exactly when `rrule` is */
  @Property({ type: 'text', fieldName: 'time_zone', nullable: true })
  timeZone: string | null = null;

  /** last instant an occurrence may start at (inclusive) */
  @Property({ type: 'timestamptz', nullable: true })
  until: Date | null = null;

  /** epoch ms of occurrences removed from the series */
  @Property({ type: 'json' })
  exdates: number[] = [];
}
