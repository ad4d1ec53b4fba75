import { Arg, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { ApiKeyType, CompanyType, CreateApiKeyInput, CreateCompanyInput } from './company.types';
import { createCompany, getCompany, listCompanies } from './company.service';
import { createApiKey, listApiKeys, revokeApiKey } from './apikey.service';

@Resolver(() => CompanyType)
export class CompanyResolver {
  @Query(() => [CompanyType], { nullable: true, description: 'Companies of the calling merchant.' })
  companies(@GqlCtx() ctx: Ctx) {
    return listCompanies(ctx);
  }

  @Query(() => CompanyType, { nullable: true })
  company(@GqlCtx() ctx: Ctx, @Arg('id', () => ID) id: string) {
    return getCompany(ctx, id);
  }

  @Mutation(() => CompanyType)
  createCompany(@GqlCtx() ctx: Ctx, @Arg('input', () => CreateCompanyInput) input: CreateCompanyInput) {
    return createCompany(ctx, input);
  }
}

@Resolver(() => ApiKeyType)
export class ApiKeyResolver {
  @Query(() => [ApiKeyType], { nullable: true })
  apiKeys(@GqlCtx() ctx: Ctx) {
    return listApiKeys(ctx);
  }

  @Mutation(() => ApiKeyType)
  createApiKey(@GqlCtx() ctx: Ctx, @Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput) {
    return createApiKey(ctx, input);
  }

  @Mutation(() => ApiKeyType)
  revokeApiKey(@GqlCtx() ctx: Ctx, @Arg('id', () => ID) id: string) {
    return revokeApiKey(ctx, id);
  }
}
