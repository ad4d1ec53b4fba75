import { Arg, Args, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import { DOC, PageArgs, pageOf } from '../../kernel/graphql-types';
import type { Ctx } from '../../kernel/context';
import { ClientResourcePageType, ClientResourceType, ClientServicePageType, ClientServiceType } from './catalog.types';
import { getClientResource, getClientService, listClientResources, listClientServices } from './client-catalog.service';

/** The client interface's catalog: an API key with client.read, or a client token of the company. */
@Resolver(() => ClientServiceType)
export class ClientCatalogResolver {
  @Query(() => ClientServicePageType, { nullable: true, description: 'Enabled services in the client form, in list order.' })
  async clientServices(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf(await listClientServices(ctx, companyID), page, 'services');
  }

  @Query(() => ClientServiceType, { nullable: true, description: 'One enabled service in the client form.' })
  clientService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getClientService(ctx, companyID, id);
  }

  @Query(() => ClientResourcePageType, { nullable: true, description: 'Enabled resources in the client form, by name.' })
  async clientResources(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf(await listClientResources(ctx, companyID), page, 'resources');
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
