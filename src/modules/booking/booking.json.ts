import { formatDuration } from '../../shared/duration';
import type { MetaData } from '../../shared/metadata';
import { formatTimestamp } from '../../shared/time';
import type { ResourceJson, ServiceJson } from '../catalog/catalog.json';
import type { ClientJson } from '../client/client.service';
import type { ServiceType } from '../../shared/service-type';
import { bookingAccessToken } from './access-token';
import type { BookedTicket, Booking, BookingStatusChange } from './booking.entity';
import type { BookingStatus } from './booking.status';

/** REST JSON of bookings (admin and client forms); GraphQL resolvers return the same objects. */

export interface StatusChangeJson {
  id: string;
  bookingID: string;
  oldStatus: BookingStatus | null;
  newStatus: BookingStatus;
  metaData: MetaData;
  createdAt: string;
}

export interface ClientBookingJson {
  id: string;
  companyID: string;
  serviceID: string;
  resourceID: string;
  relatedResourceIDs: string[];
  startTime: string;
  endTime: string | null;
  duration: string | null;
  spots: number;
  tickets: Record<string, BookedTicket>;
  price: number;
  currency: string | null;
  status: BookingStatus;
  bookingPolicy: string;
  type: ServiceType;
  accessToken: string;
  paymentURL: string | null;
  pluginData: Record<string, unknown>;
  metaData: MetaData;
  createdAt: string;
}

export interface BookingJson extends ClientBookingJson {
  clientID: string | null;
  client: ClientJson | null;
  service: ServiceJson | null;
  resource: ResourceJson | null;
  statusChanges: StatusChangeJson[];
  rrule: string | null;
  recurringID: string | null;
  clientInitiated: boolean;
  refundPercent: number | null;
  code: string | null;
  customPurchaseDescription: string | null;
  metaDataVersion: number;
  updatedAt: string;
}

export interface BlockedTimeJson {
  id: string;
  bookingID: string;
  resourceID: string;
  startTime: string | null;
  endTime: string | null;
  source: 'related_resource';
}

export function statusChangeJson(s: BookingStatusChange): StatusChangeJson {
  return {
    id: s.id,
    bookingID: s.bookingId,
    oldStatus: s.oldStatus,
    newStatus: s.newStatus,
    metaData: s.metaData ?? {},
    createdAt: formatTimestamp(s.createdAt)!,
  };
}

/** The client form; `secret` is the server's token key (the access token is derived from it). */
export function clientBookingJson(b: Booking, secret: Uint8Array): ClientBookingJson {
  return {
    id: b.id,
    companyID: b.companyId,
    serviceID: b.serviceId,
    resourceID: b.resourceId,
    relatedResourceIDs: b.relatedResourceIds ?? [],
    startTime: formatTimestamp(b.startTime)!,
    endTime: formatTimestamp(b.endTime),
    duration: b.durationSec === null ? null : formatDuration(b.durationSec),
    spots: b.spots,
    tickets: b.tickets ?? {},
    price: b.price,
    currency: b.currency,
    status: b.status,
    bookingPolicy: b.bookingPolicy,
    type: b.type,
    accessToken: bookingAccessToken(secret, b.id),
    paymentURL: b.paymentUrl,
    pluginData: b.pluginData ?? {},
    metaData: b.metaData ?? {},
    createdAt: formatTimestamp(b.createdAt)!,
  };
}

export interface Embedded {
  client?: ClientJson | null;
  service?: ServiceJson | null;
  resource?: ResourceJson | null;
}

/** The admin form, with the records it refers to embedded when the caller has them. */
export function bookingJson(b: Booking, secret: Uint8Array, changes: BookingStatusChange[], embedded: Embedded = {}): BookingJson {
  return {
    ...clientBookingJson(b, secret),
    clientID: b.clientId,
    client: embedded.client ?? null,
    service: embedded.service ?? null,
    resource: embedded.resource ?? null,
    statusChanges: changes.map(statusChangeJson),
    rrule: b.rrule,
    recurringID: b.recurringId,
    clientInitiated: b.clientInitiated,
    refundPercent: b.refundPercent,
    code: b.code,
    customPurchaseDescription: b.customPurchaseDescription,
    metaDataVersion: b.metaDataVersion,
    updatedAt: formatTimestamp(b.updatedAt)!,
  };
}
