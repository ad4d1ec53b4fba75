import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000100Company } from './Migration20261122000100Company';
import { Migration20261122000200Catalog } from './Migration20261122000200Catalog';
import { Migration20261122000400Booking } from './Migration20261122000400Booking';
import { Migration20261122000500Payment } from './Migration20261122000500Payment';
import { Migration20261122000600AvailabilitySnapshot } from './Migration20261122000600AvailabilitySnapshot';
import { Migration20261122000700PromoCode } from './Migration20261122000700PromoCode';
import { Migration20261122000800GiftCard } from './Migration20261122000800GiftCard';
import { Migration20261122000900Subscription } from './Migration20261122000900Subscription';
import { Migration20261122000250Client } from './Migration20261122000250Client';
import { Migration20261122000300Rules } from './Migration20261122000300Rules';
import { Migration20261122001500Document } from './Migration20261122001500Document';
import { Migration20261122001600Webhook } from './Migration20261122001600Webhook';
import { Migration20261122001700Audit } from './Migration20261122001700Audit';
import { Migration20261122001800CalendarFeed } from './Migration20261122001800CalendarFeed';
import { Migration20261124001800CompanyChanges } from './Migration20261124001800CompanyChanges';
import { Migration20261124002000SnapshotGenericPlan } from './Migration20261124002000SnapshotGenericPlan';
import { Migration20261124002100ApiKeyChanges } from './Migration20261124002100ApiKeyChanges';
import { Migration20261124000900SnapshotOccupancyOrder } from './Migration20261124000900SnapshotOccupancyOrder';
import { Migration20261126000100BookingWriteFunctions } from './Migration20261126000100BookingWriteFunctions';
import { Migration20261126000200SnapshotCheaper } from './Migration20261126000200SnapshotCheaper';
import { Migration20261127000100CatalogVersion } from './Migration20261127000100CatalogVersion';
import { Migration20261128000100FunctionFiles } from './Migration20261128000100FunctionFiles';
import { Migration20261128000500StripePayments } from './Migration20261128000500StripePayments';
import { Migration20261128000600Notification } from './Migration20261128000600Notification';
import { Migration20261129000100LiveWatch } from './Migration20261129000100LiveWatch';
import { Migration20261129000100AuditTriggers } from './Migration20261129000100AuditTriggers';
import { Migration20261129000100OccupancyVersion } from './Migration20261129000100OccupancyVersion';

/**
 * Every migration in order. Listed explicitly (not discovered from files) so that the
 * compiled server and the test runner apply exactly the same set.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000100Company', class: Migration20261122000100Company },
  { name: 'Migration20261122000200Catalog', class: Migration20261122000200Catalog },
  { name: 'Migration20261122000250Client', class: Migration20261122000250Client },
  { name: 'Migration20261122000300Rules', class: Migration20261122000300Rules },
  { name: 'Migration20261122000400Booking', class: Migration20261122000400Booking },
  { name: 'Migration20261122000500Payment', class: Migration20261122000500Payment },
  { name: 'Migration20261122000600AvailabilitySnapshot', class: Migration20261122000600AvailabilitySnapshot },
  { name: 'Migration20261122000700PromoCode', class: Migration20261122000700PromoCode },
  { name: 'Migration20261122000800GiftCard', class: Migration20261122000800GiftCard },
  { name: 'Migration20261122000900Subscription', class: Migration20261122000900Subscription },
  { name: 'Migration20261122001500Document', class: Migration20261122001500Document },
  { name: 'Migration20261122001600Webhook', class: Migration20261122001600Webhook },
  { name: 'Migration20261122001700Audit', class: Migration20261122001700Audit },
  { name: 'Migration20261122001800CalendarFeed', class: Migration20261122001800CalendarFeed },
  { name: 'Migration20261124000900SnapshotOccupancyOrder', class: Migration20261124000900SnapshotOccupancyOrder },
  { name: 'Migration20261124001800CompanyChanges', class: Migration20261124001800CompanyChanges },
  { name: 'Migration20261124002000SnapshotGenericPlan', class: Migration20261124002000SnapshotGenericPlan },
  { name: 'Migration20261124002100ApiKeyChanges', class: Migration20261124002100ApiKeyChanges },
  { name: 'Migration20261126000100BookingWriteFunctions', class: Migration20261126000100BookingWriteFunctions },
  { name: 'Migration20261126000200SnapshotCheaper', class: Migration20261126000200SnapshotCheaper },
  { name: 'Migration20261127000100CatalogVersion', class: Migration20261127000100CatalogVersion },
  { name: 'Migration20261128000100FunctionFiles', class: Migration20261128000100FunctionFiles },
  { name: 'Migration20261128000500StripePayments', class: Migration20261128000500StripePayments },
  { name: 'Migration20261128000600Notification', class: Migration20261128000600Notification },
  { name: 'Migration20261129000100LiveWatch', class: Migration20261129000100LiveWatch },
  { name: 'Migration20261129000100AuditTriggers', class: Migration20261129000100AuditTriggers },
  { name: 'Migration20261129000100OccupancyVersion', class: Migration20261129000100OccupancyVersion },
];
