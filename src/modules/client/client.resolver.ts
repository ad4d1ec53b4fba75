import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs } from '../../kernel/connection';
import { runHeavy } from '../../kernel/bulkhead';
import type { Ctx } from '../../kernel/context';
import {
  ClientLoginInput,
  ClientConnectionType,
  ClientSearchFilter,
  ClientType,
  CreateClientInput,
  TokenPairType,
  UpdateClientInput,
} from './client.types';
import { clientsConnection, createClient, getClient, searchClientsConnection, updateClient } from './client.service';
import { clientLogin, clientProfile, refreshClientTokens } from './client-auth.service';

@Resolver(() => ClientType)
export class ClientResolver {
  @Query(() => ClientConnectionType, { nullable: true, description: "The company's clients, oldest first." })
  clients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return runHeavy(ctx, 'lists', () => clientsConnection(ctx, companyID, page));
  }

  @Query(() => ClientType, { nullable: true, description: 'One client of the company.' })
  client(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getClient(ctx, companyID, id);
  }

  @Query(() => ClientConnectionType, { nullable: true, description: 'The clients matching every given filter, oldest first.' })
  searchClients(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('filter', () => ClientSearchFilter, { nullable: true, description: 'The filters; left out: every client.' })
    filter?: ClientSearchFilter,
  ) {
    return runHeavy(ctx, 'lists', () => searchClientsConnection(ctx, companyID, filter ?? {}, page));
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
