import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec, ORDERS } from '../../kernel/connection';
import { requireMerchant } from '../../kernel/access';
import { invalid } from '../../shared/errors';
import {
  ApiKeyConnectionType,
  ApiKeyType,
  CompanyConnectionType,
  CompanyType,
  CreateApiKeyInput,
  CreateCompanyInput,
  CreatedApiKeyType,
  type PermissionGrantInput,
} from './company.types';
import { createCompany, getCompany, listCompanies } from './company.service';
import { createApiKey, listApiKeys, revokeApiKey } from './apikey.service';

/** Grants as the REST permissions object; a scope named twice is refused rather than merged silently. */
function permissionsOf(grants: PermissionGrantInput[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  grants.forEach((g, i) => {
    if (g.companyID in out)
      throw invalid('a scope is granted twice', [{ path: `permissions[${i}].companyID`, message: 'is listed twice' }]);
    out[g.companyID] = g.permissions;
  });
  return out;
}

@Resolver(() => CompanyType)
export class CompanyResolver {
  @Query(() => CompanyConnectionType, { nullable: true, description: 'Companies of the calling merchant, oldest first.' })
  async companies(@GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    return connectionOf(
      await listCompanies(ctx),
      page,
      listSpec(ORDERS.creation, 'companies', requireMerchant(ctx).merchantId),
      'companies',
    );
  }

  @Query(() => CompanyType, { nullable: true, description: 'One company of the calling merchant.' })
  company(@GqlCtx() ctx: Ctx, @Arg('id', () => ID, { description: DOC.idArg }) id: string) {
    return getCompany(ctx, id);
  }

  @Mutation(() => CompanyType, { description: 'Creates a company; needs `companies.write` under `*`.' })
  createCompany(@GqlCtx() ctx: Ctx, @Arg('input', () => CreateCompanyInput, { description: DOC.inputArg }) input: CreateCompanyInput) {
    return createCompany(ctx, input);
  }
}

@Resolver(() => ApiKeyType)
export class ApiKeyResolver {
  @Query(() => ApiKeyConnectionType, {
    nullable: true,
    description: 'API keys of the merchant that the calling key could itself have granted, newest first; secrets are never listed.',
  })
  async apiKeys(@GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    return connectionOf(await listApiKeys(ctx), page, listSpec(ORDERS.newest, 'apiKeys', requireMerchant(ctx).merchantId), 'apiKeys');
  }

  @Mutation(() => CreatedApiKeyType, {
    description: 'Creates an API key holding at most the permissions of the calling key (else `forbidden`); the answer carries the secret.',
  })
  createApiKey(@GqlCtx() ctx: Ctx, @Arg('input', () => CreateApiKeyInput, { description: DOC.inputArg }) input: CreateApiKeyInput) {
    return createApiKey(ctx, { name: input.name, permissions: permissionsOf(input.permissions) });
  }

  @Mutation(() => ApiKeyType, { description: 'Revokes an API key; it is refused (`unauthorized`) from the next request on.' })
  revokeApiKey(@GqlCtx() ctx: Ctx, @Arg('id', () => ID, { description: DOC.idArg }) id: string) {
    return revokeApiKey(ctx, id);
  }
}
