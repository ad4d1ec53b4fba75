import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { MetaEntity } from '../../shared/base.entity';
import type { ServiceType } from '../../shared/service-type';
import type { BookingStatus } from './booking.status';

/** What one ticket of a ticket booking cost when it was booked. */
export interface BookedTicket {
  spots: number;
  price: number;
  comparedPrice: number;
}

/**
 * A booking. Prices, buffers, policy and related resources are snapshots taken when the time
 * was booked, so later rule changes never rewrite what a client agreed to.
 */
@Entity({ tableName: 'booking' })
export class Booking extends MetaEntity {
  @Property({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @Property({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @Property({ type: 'uuid', fieldName: 'client_id', nullable: true })
  clientId: string | null = null;

  @Property({ type: 'text' })
  type!: ServiceType;

  @Property({ type: 'text' })
  status!: BookingStatus;

  @Property({ type: 'timestamptz', fieldName: 'start_time' })
  startTime!: Date;

  /** null while a sharable booking is still running */
  @Property({ type: 'timestamptz', fieldName: 'end_time', nullable: true })
  endTime: Date | null = null;

  @Property({ type: 'integer', fieldName: 'duration_sec', nullable: true })
  durationSec: number | null = null;

  @Property({ type: 'integer' })
  spots: number = 1;

  @Property({ type: 'json' })
  tickets: Record<string, BookedTicket> = {};

  @Property({ type: 'integer' })
  price: number = 0;

  @Property({ type: 'text', nullable: true })
  currency: string | null = null;

  @Property({ type: 'text', fieldName: 'booking_policy' })
  bookingPolicy: 'instant' | 'manual' = 'instant';

  @Property({ type: 'json', fieldName: 'related_resource_ids' })
  relatedResourceIds: string[] = [];

  @Property({ type: 'text', nullable: true })
  rrule: string | null = null;

  @Property({ type: 'uuid', fieldName: 'recurring_id', nullable: true })
  recurringId: string | null = null;

  @Property({ type: 'boolean', fieldName: 'client_initiated' })
  clientInitiated: boolean = false;

  @Property({ type: 'text', fieldName: 'payment_url', nullable: true })
  paymentUrl: string | null = null;

  @Property({ type: 'uuid', fieldName: 'payment_transaction_id', nullable: true })
  paymentTransactionId: string | null = null;

  @Property({ type: 'json', fieldName: 'plugin_data' })
  pluginData: Record<string, unknown> = {};

  @Property({ type: 'text', nullable: true })
  code: string | null = null;

  @Property({ type: 'text', fieldName: 'custom_purchase_description', nullable: true })
  customPurchaseDescription: string | null = null;

  @Property({ type: 'integer', fieldName: 'refund_percent', nullable: true })
  refundPercent: number | null = null;

  @Property({ type: 'integer', fieldName: 'buffer_before_sec' })
  bufferBeforeSec: number = 0;

  @Property({ type: 'integer', fieldName: 'buffer_after_sec' })
  bufferAfterSec: number = 0;
}

@Entity({ tableName: 'booking_status_change' })
export class BookingStatusChange {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  /** insertion order (identity column), which is the order the changes happened in */
  @Property({ type: 'string', columnType: 'bigint', nullable: true })
  seq?: string;

  @Property({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;

  @Property({ type: 'uuid', fieldName: 'booking_id' })
  bookingId!: string;

  @Property({ type: 'text', fieldName: 'old_status', nullable: true })
  oldStatus: BookingStatus | null = null;

  @Property({ type: 'text', fieldName: 'new_status' })
  newStatus!: BookingStatus;

  @Property({ type: 'json', fieldName: 'meta_data' })
  metaData: Record<string, unknown> = {};

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}

/**
 * One resource held by a pending or confirmed booking over its buffered interval. Rows are
 * written and deleted with SQL in the booking's transaction (see booking.hold.ts); the entity
 * exists for reads. `during` is a tstzrange, read as text.
 */
@Entity({ tableName: 'booking_occupancy' })
export class BookingOccupancy {
  @PrimaryKey({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;

  @PrimaryKey({ type: 'uuid', fieldName: 'booking_id' })
  bookingId!: string;

  @PrimaryKey({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @Property({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  source!: 'booking' | 'related_resource';

  @Property({ type: 'text', columnType: 'tstzrange' })
  during!: string;
}

/** Spots taken at one slot occurrence of a group or ticket service; changed only under a row lock. */
@Entity({ tableName: 'slot_usage' })
export class SlotUsage {
  @PrimaryKey({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;

  @PrimaryKey({ type: 'uuid', fieldName: 'service_id' })
  serviceId!: string;

  @PrimaryKey({ type: 'uuid', fieldName: 'resource_id' })
  resourceId!: string;

  @PrimaryKey({ type: 'timestamptz', fieldName: 'start_time' })
  startTime!: Date;

  @Property({ type: 'integer', fieldName: 'booked_spots' })
  bookedSpots: number = 0;

  @Property({ type: 'json', fieldName: 'booked_per_ticket' })
  bookedPerTicket: Record<string, number> = {};
}

/** The stored first response of a booking-creating request, per company and `Idempotency-Key`. */
@Entity({ tableName: 'idempotency_key' })
export class IdempotencyKey {
  @PrimaryKey({ type: 'uuid', fieldName: 'company_id' })
  companyId!: string;

  @PrimaryKey({ type: 'text' })
  key!: string;

  @Property({ type: 'text', fieldName: 'request_hash' })
  requestHash!: string;

  @Property({ type: 'integer' })
  status!: number;

  @Property({ type: 'json' })
  response!: unknown;

  @Property({ type: 'timestamptz', fieldName: 'created_at' })
  createdAt!: Date;
}
