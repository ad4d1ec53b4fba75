import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { updateRecordMetaData } from '../../shared/metadata';
import { Check } from '../../shared/validate';
import type { ServiceType } from '../../shared/service-type';
import { Service } from './catalog.entity';
import { SERVICE_TYPES } from '../../shared/service-type';
import { serviceJson, type ServiceJson } from './catalog.json';
import { getServiceInCompany } from './catalog.lookup';
import { mergeSettings } from './catalog.checks';

/** Inputs as they arrive from REST bodies or GraphQL input objects; the service checks every value. */
export interface CreateServiceFields {
  name?: unknown;
  type?: unknown;
  color?: unknown;
  metaData?: unknown;
  position?: unknown;
  settings?: unknown;
}

export interface UpdateServiceFields {
  name?: unknown;
  type?: unknown;
  color?: unknown;
  enabled?: unknown;
  metaDataUpdate?: unknown;
  position?: unknown;
}

// `position` is a PostgreSQL integer.
const POSITION = { min: -2147483648, max: 2147483647 };

export const SERVICE_ORDER = { position: 'asc', createdAt: 'asc', id: 'asc' } as const;

/** Services of a company, ordered by position, then creation. */
export async function listServices(ctx: Ctx, companyId: string): Promise<ServiceJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  const services = await ctx.em.find(Service, { companyId: company.id }, { orderBy: SERVICE_ORDER });
  return services.map(serviceJson);
}

/** One service of a company. */
export async function getService(ctx: Ctx, companyId: string, id: string): Promise<ServiceJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  return serviceJson(await getServiceInCompany(ctx, company.id, id, 'id'));
}

/** Creates a service; without `position` it goes after the company's last one. */
export async function createService(ctx: Ctx, companyId: string, input: CreateServiceFields): Promise<ServiceJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const c = new Check();
  const name = c.string('name', input.name, { required: true });
  const type = c.oneOf<ServiceType>('type', input.type, SERVICE_TYPES, true);
  const color = c.color('color', input.color);
  const metaData = c.metaData('metaData', input.metaData);
  let position = c.int('position', input.position, POSITION);
  const settings = mergeSettings(c, 'settings', {}, input.settings, type ?? null);
  c.done('invalid service');

  if (position === undefined) {
    const [row] = await ctx.em
      .getConnection()
      .execute<{ next: number }[]>('select coalesce(max(position), -1) + 1 as next from service where company_id = ?', [company.id]);
    position = Math.min(Number(row?.next ?? 0), POSITION.max);
  }
  const service = ctx.em.create(Service, {
    companyId: company.id,
    name: name!,
    type: type!,
    color: color ?? null,
    position,
    settings,
    metaData: metaData ?? {},
    metaDataVersion: 1,
    disabledAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return serviceJson(service);
}

/**
 * Partial update: name, color, position, `enabled` (sets or clears `disabledAt`) and
 * `metaDataUpdate`. The type is fixed at creation; sending a different one is a 400.
 */
export async function updateService(ctx: Ctx, companyId: string, id: string, input: UpdateServiceFields): Promise<ServiceJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const service = await getServiceInCompany(ctx, company.id, id, 'id');
  const c = new Check();
  const name = c.string('name', input.name, { required: input.name !== undefined });
  const color = c.color('color', input.color);
  const enabled = c.bool('enabled', input.enabled);
  const position = c.int('position', input.position, POSITION);
  if (input.type !== undefined && input.type !== null && input.type !== service.type)
    c.fail('type', 'cannot change after the service is created');
  c.done('invalid service update');

  updateRecordMetaData(service, input.metaDataUpdate);
  if (name !== undefined) service.name = name;
  if (color !== undefined) service.color = color;
  else if (input.color === null) service.color = null;
  if (position !== undefined) service.position = position;
  if (enabled === true) service.disabledAt = null;
  // Disabling an already disabled service keeps the original moment.
  else if (enabled === false && !service.disabledAt) service.disabledAt = ctx.now;
  service.updatedAt = ctx.now;
  await ctx.em.flush();
  return serviceJson(service);
}

/**
 * Partial settings update: only the keys sent change, `null` clears one. The merged settings
 * must still satisfy the type's rules (a fixed service keeps a positive duration).
 */
export async function updateServiceSettings(ctx: Ctx, companyId: string, id: string, input: unknown): Promise<ServiceJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const service = await getServiceInCompany(ctx, company.id, id, 'id');
  const c = new Check();
  const settings = mergeSettings(c, '', service.settings ?? {}, input ?? {}, service.type);
  c.done('invalid service settings');
  service.settings = settings;
  service.updatedAt = ctx.now;
  await ctx.em.flush();
  return serviceJson(service);
}
