import type { AppDeps, Ctx } from '../../kernel/context';
import { requireMerchant } from '../../kernel/access';
import { grants } from '../../kernel/permissions';
import { DomainError, forbidden, notFound, unauthorized } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { Company } from './company.entity';

/**
 * Company rows are cached per process: the tenancy check of every request then costs no SQL
 * statement. Any change to a company row is announced by the database (`company_changed`,
 * migration 20261124001800) and every process drops its copy; while the announcements cannot be
 * heard the cache is not used. A row read while a change is announced is not cached.
 */
const companyCache = new Map<string, Company>();
const COMPANY_CACHE_MAX = 10_000;
let generation = 0;

/** Drops one cached company, or all of them (`null`: changes may have been missed). */
export function forgetCompany(id: string | null): void {
  generation++;
  if (id === null) companyCache.clear();
  else companyCache.delete(id.toLowerCase());
}

/** Keeps the cache of this process in step with changes made by any process. */
export function followCompanyChanges(deps: AppDeps): (() => Promise<void>) | void {
  return deps.changes?.subscribe('company_changed', forgetCompany);
}

/** Loads a company by id (no access checks); a copy, so that nothing shares a managed entity. */
export async function findCompany(ctx: Ctx, companyId: string): Promise<Company> {
  if (!isUuid(companyId))
    throw new DomainError('invalid_request', 'company id must be a UUID', [{ path: 'companyID', message: 'must be a UUID' }]);
  const id = companyId.toLowerCase();
  let company = ctx.companies.get(id) as Company | undefined;
  if (company) return company;
  const trusted = ctx.deps.changes?.live ?? true;
  const cached = trusted ? companyCache.get(id) : undefined;
  if (cached) {
    company = Object.assign(Object.create(Company.prototype) as Company, cached);
  } else {
    const seen = generation;
    const found = await ctx.em.findOne(Company, { id });
    if (!found) throw notFound('company');
    company = found;
    if (trusted && seen === generation) {
      if (companyCache.size >= COMPANY_CACHE_MAX) companyCache.clear();
      companyCache.set(id, Object.assign(Object.create(Company.prototype) as Company, found));
    }
  }
  ctx.companies.set(id, company);
  return company;
}

/**
 * The company addressed by a merchant call, after the tenancy checks: unknown id 404,
 * another merchant's company 403, missing permission 403.
 */
export async function companyForMerchant(ctx: Ctx, companyId: string, permission: string): Promise<Company> {
  const actor = requireMerchant(ctx);
  const company = await findCompany(ctx, companyId);
  if (company.merchantId !== actor.merchantId) throw forbidden('the company belongs to another merchant');
  if (!grants(actor.permissions, company.id, permission)) throw forbidden(`missing permission ${permission}`);
  return company;
}

/**
 * The company addressed by a client-interface call: an API key holding `permission`
 * (`client.read` or `client.create`) for it, or a client token of that very company.
 */
export async function companyForClientInterface(ctx: Ctx, companyId: string, permission: string): Promise<Company> {
  if (!ctx.actor) throw unauthorized();
  if (ctx.actor.kind === 'merchant') return companyForMerchant(ctx, companyId, permission);
  const company = await findCompany(ctx, companyId);
  if (company.id !== ctx.actor.companyId) throw forbidden('the token belongs to another company');
  return company;
}
