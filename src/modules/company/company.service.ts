import type { Ctx } from '../../kernel/context';
import { requireGlobalPermission, requireMerchant } from '../../kernel/access';
import { companyForMerchant } from './company.access';
import { Check } from '../../shared/validate';
import { formatTimestamp } from '../../shared/time';
import { grants } from '../../kernel/permissions';
import { Company } from './company.entity';

export interface CompanyJson {
  id: string;
  name: string;
  ownerID: string;
  timeZone: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export function companyJson(c: Company): CompanyJson {
  return {
    id: c.id,
    name: c.name,
    ownerID: c.merchantId,
    timeZone: c.timeZone,
    enabled: c.enabled,
    createdAt: formatTimestamp(c.createdAt)!,
    updatedAt: formatTimestamp(c.updatedAt)!,
  };
}

/** Companies of the calling merchant that the key may read, oldest first. */
export async function listCompanies(ctx: Ctx): Promise<CompanyJson[]> {
  const actor = requireMerchant(ctx);
  const all = await ctx.em.find(Company, { merchantId: actor.merchantId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return all.filter((c) => grants(actor.permissions, c.id, 'companies.read')).map(companyJson);
}

/** Creates a company owned by the calling merchant (needs `companies.write` under `*`). */
export async function createCompany(ctx: Ctx, input: { name?: unknown; timeZone?: unknown }): Promise<CompanyJson> {
  const actor = requireGlobalPermission(ctx, 'companies.write');
  const check = new Check();
  const name = check.string('name', input.name, { required: true });
  const timeZone = check.zone('timeZone', input.timeZone, true);
  check.done('invalid company');
  const company = ctx.em.create(Company, {
    merchantId: actor.merchantId,
    name: name!,
    timeZone: timeZone!,
    enabled: true,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return companyJson(company);
}

/** One company of the calling merchant. */
export async function getCompany(ctx: Ctx, id: string): Promise<CompanyJson> {
  return companyJson(await companyForMerchant(ctx, id, 'companies.read'));
}
