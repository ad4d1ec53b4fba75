import { Arg, Args, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec, ORDERS, type SortKey } from '../../kernel/connection';
import { BY_NAME } from './catalog.lists';
import type { Ctx } from '../../kernel/context';
import { ClientResourceConnectionType, ClientResourceType, ClientServiceConnectionType, ClientServiceType } from './catalog.types';
import { getClientResource, getClientService, listClientResources, listClientServicesInOrder } from './client-catalog.service';
import type { ClientServiceJson } from './catalog.json';

/** The client interface's catalog: an API key with client.read, or a client token of the company. */
@Resolver(() => ClientServiceType)
export class ClientCatalogResolver {
  @Query(() => ClientServiceConnectionType, { nullable: true, description: 'Enabled services in the client form, in list order.' })
  async clientServices(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    const { services, positions } = await listClientServicesInOrder(ctx, companyID);
    const keys: SortKey<ClientServiceJson>[] = [{ column: 'position', type: 'int', of: (n) => positions.get(n.id) }, ...ORDERS.creation];
    return connectionOf(services, page, listSpec(keys, 'clientServices', companyID), 'services');
  }

  @Query(() => ClientServiceType, { nullable: true, description: 'One enabled service in the client form.' })
  clientService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getClientService(ctx, companyID, id);
  }

  @Query(() => ClientResourceConnectionType, { nullable: true, description: 'Enabled resources in the client form, by name.' })
  async clientResources(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(await listClientResources(ctx, companyID), page, listSpec(BY_NAME, 'clientResources', companyID), 'resources');
  }

  @Query(() => ClientResourceType, { nullable: true, description: 'One enabled resource in the client form.' })
  clientResource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getClientResource(ctx, companyID, id);
  }
}
