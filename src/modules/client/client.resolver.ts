import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC, PageArgs } from '../../kernel/graphql-types';
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
import { createClient, getClient, listClients, searchClientsPage, updateClient } from './client.service';
import { clientLogin, clientProfile, refreshClientTokens } from './client-auth.service';

@Resolver(() => ClientType)
export class ClientResolver {
  @Query(() => ClientPageType, { nullable: true, description: "A page of the company's clients (limit at most 100), oldest first." })
  clients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return listClients(ctx, companyID, page);
  }

  @Query(() => ClientType, { nullable: true, description: 'One client of the company.' })
  client(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getClient(ctx, companyID, id);
  }

  @Query(() => ClientPageType, { nullable: true, description: 'A page of the clients matching every given filter, oldest first.' })
  searchClients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('filter', () => ClientSearchFilter, { nullable: true, description: 'The filters; left out: every client.' })
    filter?: ClientSearchFilter,
  ) {
    return searchClientsPage(ctx, companyID, filter ?? {}, page);
  }

  @Mutation(() => ClientType, { description: 'Creates a client; an externalUserID already used in the company is `conflict`.' })
  createClient(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => CreateClientInput, { description: DOC.inputArg }) input: CreateClientInput,
  ) {
    return createClient(ctx, companyID, input);
  }

  @Mutation(() => ClientType, { description: 'Changes the fields sent; a stale metaDataUpdate.expectedVersion is `version_conflict`.' })
  updateClient(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateClientInput, { description: DOC.inputArg }) input: UpdateClientInput,
  ) {
    return updateClient(ctx, companyID, id, input);
  }

  @Query(() => ClientType, { nullable: true, description: 'The client of the bearer access token.' })
  clientProfile(@GqlCtx() ctx: Ctx) {
    return clientProfile(ctx);
  }

  @Mutation(() => TokenPairType, {
    description: 'Client authorization; needs an API key with client.login for the company. A blocked client is `forbidden`.',
  })
  clientLogin(@GqlCtx() ctx: Ctx, @Arg('input', () => ClientLoginInput, { description: DOC.inputArg }) input: ClientLoginInput) {
    return clientLogin(ctx, input);
  }

  @Mutation(() => TokenPairType, {
    description: 'Exchanges a refresh token (single use) for a new pair; a reused one revokes the session.',
  })
  refreshClientTokens(
    @GqlCtx() ctx: Ctx,
    @Arg('refreshToken', { description: 'The refresh token of the last pair.' }) refreshToken: string,
  ) {
    return refreshClientTokens(ctx, refreshToken);
  }
}
