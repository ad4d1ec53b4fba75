import type { MetaData } from '../../shared/metadata';
import { formatTimestamp } from '../../shared/time';
import type { ServiceType } from '../../shared/service-type';
import type { RelatedResources, Resource, Service, ServiceResourceLink, ServiceSettings, Ticket } from './catalog.entity';

/** REST JSON of the catalog records; GraphQL resolvers return the same objects. */

/**
 * What the JSON of each record reads: an entity, or a row read without the ORM
 * (catalog.records.ts, for the GraphQL relations and the client forms).
 */
export type ServiceRecord = Pick<
  Service,
  | 'id'
  | 'companyId'
  | 'name'
  | 'type'
  | 'color'
  | 'metaData'
  | 'metaDataVersion'
  | 'position'
  | 'settings'
  | 'disabledAt'
  | 'createdAt'
  | 'updatedAt'
>;
export type ResourceRecord = Pick<
  Resource,
  'id' | 'companyId' | 'name' | 'color' | 'metaData' | 'metaDataVersion' | 'relatedResourceIDs' | 'disabledAt' | 'createdAt' | 'updatedAt'
>;
export type TicketRecord = Pick<
  Ticket,
  'id' | 'serviceId' | 'name' | 'enabled' | 'metaData' | 'metaDataVersion' | 'createdAt' | 'updatedAt'
>;
export type LinkRecord = Pick<ServiceResourceLink, 'id' | 'serviceId' | 'resourceId' | 'relatedResourceIDs' | 'createdAt' | 'updatedAt'>;

export interface ServiceSettingsJson {
  availabilityPeriod: string | null;
  bookingPolicy: 'instant' | 'manual';
  bufferBefore: string | null;
  bufferAfter: string | null;
  checkInTime: string | null;
  checkOutTime: string | null;
  currency: string | null;
  duration: string | null;
  timeInterval: string | null;
  tax: { inclusive: boolean; rate: number } | null;
}

export interface ServiceJson {
  id: string;
  companyID: string;
  name: string;
  type: ServiceType;
  color: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  position: number;
  settings: ServiceSettingsJson;
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ResourceJson {
  id: string;
  companyID: string;
  name: string;
  color: string | null;
  metaData: MetaData;
  metaDataVersion: number;
  relatedResourceIDs: string[];
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface TicketJson {
  id: string;
  serviceID: string;
  name: string;
  enabled: boolean;
  metaData: MetaData;
  metaDataVersion: number;
  createdAt: string;
  updatedAt: string;
}

export interface LinkJson {
  id: string;
  serviceID: string;
  resourceID: string;
  relatedResourceIDs: RelatedResources;
  createdAt: string;
  updatedAt: string;
}

export interface ClientServiceResourceJson {
  id: string;
  companyID: string;
  name: string;
  color: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ClientServiceJson {
  id: string;
  companyID: string;
  name: string;
  type: ServiceType;
  color: string | null;
  settings: ServiceSettingsJson;
  timeZone: string;
  resources: ClientServiceResourceJson[];
  tickets: { id: string; name: string }[];
  createdAt: string;
  updatedAt: string;
}

export interface ClientResourceServiceJson {
  id: string;
  companyID: string;
  name: string;
  color: string | null;
  type: ServiceType;
  settings: ServiceSettingsJson;
  createdAt: string;
  updatedAt: string;
}

export interface ClientResourceJson {
  id: string;
  companyID: string;
  name: string;
  color: string | null;
  services: ClientResourceServiceJson[];
  createdAt: string;
  updatedAt: string;
}

const ts = (d: Date): string => formatTimestamp(d)!;

/** Every settings key is present in responses (null when unset), so clients see one stable shape. */
export function settingsJson(s: ServiceSettings | null | undefined): ServiceSettingsJson {
  const v = s ?? {};
  return {
    availabilityPeriod: v.availabilityPeriod ?? null,
    bookingPolicy: v.bookingPolicy ?? 'instant',
    bufferBefore: v.bufferBefore ?? null,
    bufferAfter: v.bufferAfter ?? null,
    checkInTime: v.checkInTime ?? null,
    checkOutTime: v.checkOutTime ?? null,
    currency: v.currency ?? null,
    duration: v.duration ?? null,
    timeInterval: v.timeInterval ?? null,
    tax: v.tax ? { inclusive: v.tax.inclusive, rate: v.tax.rate } : null,
  };
}

export function serviceJson(s: ServiceRecord): ServiceJson {
  return {
    id: s.id,
    companyID: s.companyId,
    name: s.name,
    type: s.type,
    color: s.color,
    metaData: s.metaData ?? {},
    metaDataVersion: s.metaDataVersion,
    position: s.position,
    settings: settingsJson(s.settings),
    disabledAt: formatTimestamp(s.disabledAt),
    createdAt: ts(s.createdAt),
    updatedAt: ts(s.updatedAt),
  };
}

export function resourceJson(r: ResourceRecord): ResourceJson {
  return {
    id: r.id,
    companyID: r.companyId,
    name: r.name,
    color: r.color,
    metaData: r.metaData ?? {},
    metaDataVersion: r.metaDataVersion,
    relatedResourceIDs: r.relatedResourceIDs ?? [],
    disabledAt: formatTimestamp(r.disabledAt),
    createdAt: ts(r.createdAt),
    updatedAt: ts(r.updatedAt),
  };
}

export function ticketJson(t: TicketRecord): TicketJson {
  return {
    id: t.id,
    serviceID: t.serviceId,
    name: t.name,
    enabled: t.enabled,
    metaData: t.metaData ?? {},
    metaDataVersion: t.metaDataVersion,
    createdAt: ts(t.createdAt),
    updatedAt: ts(t.updatedAt),
  };
}

export function linkJson(l: LinkRecord): LinkJson {
  const rel = l.relatedResourceIDs ?? { all: [], any: [] };
  return {
    id: l.id,
    serviceID: l.serviceId,
    resourceID: l.resourceId,
    relatedResourceIDs: { all: rel.all ?? [], any: rel.any ?? [] },
    createdAt: ts(l.createdAt),
    updatedAt: ts(l.updatedAt),
  };
}

export function clientServiceJson(s: Service, timeZone: string, resources: ResourceRecord[], tickets: TicketRecord[]): ClientServiceJson {
  return {
    id: s.id,
    companyID: s.companyId,
    name: s.name,
    type: s.type,
    color: s.color,
    settings: settingsJson(s.settings),
    timeZone,
    resources: resources.map((r) => ({
      id: r.id,
      companyID: r.companyId,
      name: r.name,
      color: r.color,
      createdAt: ts(r.createdAt),
      updatedAt: ts(r.updatedAt),
    })),
    tickets: tickets.map((t) => ({ id: t.id, name: t.name })),
    createdAt: ts(s.createdAt),
    updatedAt: ts(s.updatedAt),
  };
}

export function clientResourceJson(r: Resource, services: ServiceRecord[]): ClientResourceJson {
  return {
    id: r.id,
    companyID: r.companyId,
    name: r.name,
    color: r.color,
    services: services.map((s) => ({
      id: s.id,
      companyID: s.companyId,
      name: s.name,
      color: s.color,
      type: s.type,
      settings: settingsJson(s.settings),
      createdAt: ts(s.createdAt),
      updatedAt: ts(s.updatedAt),
    })),
    createdAt: ts(r.createdAt),
    updatedAt: ts(r.updatedAt),
  };
}
