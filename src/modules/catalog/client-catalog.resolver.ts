import { Arg, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { ClientResourceType, ClientServiceType } from './catalog.types';
import { getClientResource, getClientService, listClientResources, listClientServices } from './client-catalog.service';

/** The client interface's catalog: an API key with client.read, or a client token of the company. */
@Resolver(() => ClientServiceType)
export class ClientCatalogResolver {
  @Query(() => [ClientServiceType], { nullable: true, description: 'Enabled services in the client form.' })
  clientServices(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string) {
    return listClientServices(ctx, companyID);
  }

  @Query(() => ClientServiceType, { nullable: true })
  clientService(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getClientService(ctx, companyID, id);
  }

  @Query(() => [ClientResourceType], { nullable: true, description: 'Enabled resources in the client form.' })
  clientResources(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string) {
    return listClientResources(ctx, companyID);
  }

  @Query(() => ClientResourceType, { nullable: true })
  clientResource(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getClientResource(ctx, companyID, id);
  }
}
