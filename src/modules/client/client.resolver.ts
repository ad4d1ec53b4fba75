import { Arg, Ctx as GqlCtx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import {
  ClientLoginInput,
  ClientPageType,
  ClientSearchFilter,
  ClientType,
  CreateClientInput,
  TokenPairType,
  UpdateClientInput,
} from './client.types';
import { createClient, getClient, listClients, searchClients, updateClient } from './client.service';
import { clientLogin, clientProfile, refreshClientTokens } from './client-auth.service';

@Resolver(() => ClientType)
export class ClientResolver {
  @Query(() => ClientPageType, { nullable: true, description: "A page of the company's clients (limit at most 100), oldest first." })
  clients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('limit', () => Int, { nullable: true }) limit?: number,
    @Arg('offset', () => Int, { nullable: true }) offset?: number,
  ) {
    return listClients(ctx, companyID, { limit, offset });
  }

  @Query(() => ClientType, { nullable: true })
  client(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getClient(ctx, companyID, id);
  }

  @Query(() => [ClientType], { nullable: true, description: 'Clients matching every given filter; at most 100.' })
  searchClients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('filter', () => ClientSearchFilter, { nullable: true }) filter?: ClientSearchFilter,
  ) {
    return searchClients(ctx, companyID, filter ?? {});
  }

  @Mutation(() => ClientType)
  createClient(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => CreateClientInput) input: CreateClientInput,
  ) {
    return createClient(ctx, companyID, input);
  }

  @Mutation(() => ClientType)
  updateClient(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateClientInput) input: UpdateClientInput,
  ) {
    return updateClient(ctx, companyID, id, input);
  }

  @Query(() => ClientType, { nullable: true, description: 'The client of the bearer access token.' })
  clientProfile(@GqlCtx() ctx: Ctx) {
    return clientProfile(ctx);
  }

  @Mutation(() => TokenPairType, { description: 'Client authorization; needs an API key with client.login for the company.' })
  clientLogin(@GqlCtx() ctx: Ctx, @Arg('input', () => ClientLoginInput) input: ClientLoginInput) {
    return clientLogin(ctx, input);
  }

  @Mutation(() => TokenPairType, {
    description: 'Exchanges a refresh token (single use) for a new pair; a reused one revokes the session.',
  })
  refreshClientTokens(@GqlCtx() ctx: Ctx, @Arg('refreshToken') refreshToken: string) {
    return refreshClientTokens(ctx, refreshToken);
  }
}
