import type { Ctx } from '../../kernel/context';
import type { LinkRecord, ResourceRecord, ServiceRecord, TicketRecord } from './catalog.json';

/**
 * Catalog rows read as plain records rather than entities, for read-only answers of many
 * records (the GraphQL relations, the client forms): a nested list of a few hundred records
 * spent most of its time in the ORM's hydration, identity map and change tracking, none of
 * which such an answer needs. Values are converted as the ORM converts them: timestamps by the
 * platform's own parser, JSON columns parsed by the driver.
 */

export type Row = Record<string, unknown>;
export type DateOf = (v: unknown) => Date | null;

/** The ORM platform's timestamp conversion (timestamps arrive as text). */
export function datesOf(ctx: Ctx): DateOf {
  const platform = ctx.em.getPlatform();
  return (v) => (v === null || v === undefined ? null : platform.parseDate(v as string));
}

/** `a.x, a.y, ...` */
export const columns = (list: readonly string[], alias: string): string => list.map((c) => `${alias}.${c}`).join(', ');

const META = ['meta_data', 'meta_data_version'] as const;
const STAMPS = ['created_at', 'updated_at'] as const;

export const SERVICE_COLUMNS = ['id', 'company_id', 'name', 'type', 'color', ...META, 'position', 'settings', 'disabled_at', ...STAMPS];
export const RESOURCE_COLUMNS = ['id', 'company_id', 'name', 'color', ...META, 'related_resource_ids', 'disabled_at', ...STAMPS];
export const TICKET_COLUMNS = ['id', 'service_id', 'name', 'enabled', ...META, ...STAMPS];
export const LINK_COLUMNS = ['id', 'service_id', 'resource_id', 'related_resource_ids', ...STAMPS];

export function serviceRecord(row: Row, date: DateOf): ServiceRecord {
  return {
    id: row.id as string,
    companyId: row.company_id as string,
    name: row.name as string,
    type: row.type as ServiceRecord['type'],
    color: row.color as string | null,
    metaData: row.meta_data as ServiceRecord['metaData'],
    metaDataVersion: row.meta_data_version as number,
    position: row.position as number,
    settings: row.settings as ServiceRecord['settings'],
    disabledAt: date(row.disabled_at),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

export function resourceRecord(row: Row, date: DateOf): ResourceRecord {
  return {
    id: row.id as string,
    companyId: row.company_id as string,
    name: row.name as string,
    color: row.color as string | null,
    metaData: row.meta_data as ResourceRecord['metaData'],
    metaDataVersion: row.meta_data_version as number,
    relatedResourceIDs: row.related_resource_ids as string[],
    disabledAt: date(row.disabled_at),
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

export function ticketRecord(row: Row, date: DateOf): TicketRecord {
  return {
    id: row.id as string,
    serviceId: row.service_id as string,
    name: row.name as string,
    enabled: row.enabled as boolean,
    metaData: row.meta_data as TicketRecord['metaData'],
    metaDataVersion: row.meta_data_version as number,
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}

export function linkRecord(row: Row, date: DateOf): LinkRecord {
  return {
    id: row.id as string,
    serviceId: row.service_id as string,
    resourceId: row.resource_id as string,
    relatedResourceIDs: row.related_resource_ids as LinkRecord['relatedResourceIDs'],
    createdAt: date(row.created_at)!,
    updatedAt: date(row.updated_at)!,
  };
}
