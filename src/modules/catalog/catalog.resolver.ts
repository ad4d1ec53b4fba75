import { Arg, Args, Ctx as GqlCtx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec } from '../../kernel/connection';
import { BY_CREATION, BY_NAME, BY_POSITION } from './catalog.lists';
import type { Ctx } from '../../kernel/context';
import { requireMerchant } from '../../kernel/access';
import { forbidden } from '../../shared/errors';
import { grants } from '../../kernel/permissions';
import { CompanyType } from '../company/company.types';
import type { CompanyJson } from '../company/company.service';
import { linkJson, resourceJson, serviceJson, ticketJson, type ResourceJson, type ServiceJson } from './catalog.json';
import {
  catalogKey,
  linksByService,
  resourcesByCompany,
  resourcesByService,
  servicesByCompany,
  servicesByResource,
  ticketsByService,
} from './catalog.loaders';
import {
  CreateResourceInput,
  CreateServiceInput,
  ServiceSettingsInput,
  UpdateResourceInput,
  UpdateServiceInput,
  ResourceConnectionType,
  ResourceType,
  ServiceConnectionType,
  ServiceResourceLinkConnectionType,
  ServiceType,
  TicketConnectionType,
} from './catalog.types';
import { createResource, getResource, listResources, updateResource } from './resource.service';
import { createService, getService, listServices, updateService, updateServiceSettings } from './service.service';

/**
 * Nested fields hang off records whose company the root query has already checked against the
 * caller, so only the permission for the nested area is checked here, without any statement,
 * which keeps a whole list level to one DataLoader batch.
 */
function allowNested(ctx: Ctx, companyId: string, permission: string): void {
  const actor = requireMerchant(ctx);
  if (!grants(actor.permissions, companyId, permission)) throw forbidden(`missing permission ${permission}`);
}

@Resolver(() => ServiceType)
export class ServiceResolver {
  @Query(() => ServiceConnectionType, { nullable: true, description: 'Services of a company, ordered by position, then creation.' })
  async services(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(await listServices(ctx, companyID), page, listSpec(BY_POSITION, 'services', companyID), 'services');
  }

  @Query(() => ServiceType, { nullable: true, description: 'One service of the company.' })
  service(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getService(ctx, companyID, id);
  }

  @Mutation(() => ServiceType, { description: 'Creates a service (`services.write`).' })
  createService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => CreateServiceInput, { description: DOC.inputArg }) input: CreateServiceInput,
  ) {
    return createService(ctx, companyID, input);
  }

  @Mutation(() => ServiceType, { description: 'Changes the fields sent; a stale metaDataUpdate.expectedVersion is `version_conflict`.' })
  updateService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateServiceInput, { description: DOC.inputArg }) input: UpdateServiceInput,
  ) {
    return updateService(ctx, companyID, id, input);
  }

  @Mutation(() => ServiceType, { description: 'Changes only the settings sent; null clears one.' })
  updateServiceSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => ServiceSettingsInput, { description: DOC.inputArg }) input: ServiceSettingsInput,
  ) {
    return updateServiceSettings(ctx, companyID, id, input);
  }

  @FieldResolver(() => ResourceConnectionType, { description: 'Linked resources (disabled ones included), by name.' })
  async resources(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, s.companyID, 'resources.read');
    const all = (await resourcesByService(ctx).load(catalogKey(s.companyID, s.id))).map(resourceJson);
    return connectionOf(all, page, listSpec(BY_NAME, 'Service.resources', s.id), 'resources');
  }

  @FieldResolver(() => TicketConnectionType, { description: 'Tickets of the service, oldest first.' })
  async tickets(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, s.companyID, 'services.read');
    const all = (await ticketsByService(ctx).load(catalogKey(s.companyID, s.id))).map(ticketJson);
    return connectionOf(all, page, listSpec(BY_CREATION, 'Service.tickets', s.id), 'tickets');
  }

  @FieldResolver(() => ServiceResourceLinkConnectionType, { description: 'Resource links of the service, oldest first.' })
  async links(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, s.companyID, 'services.read');
    const all = (await linksByService(ctx).load(catalogKey(s.companyID, s.id))).map(linkJson);
    return connectionOf(all, page, listSpec(BY_CREATION, 'Service.links', s.id), 'links');
  }
}

@Resolver(() => ResourceType)
export class ResourceResolver {
  @Query(() => ResourceConnectionType, { nullable: true, description: 'Resources of a company, by name.' })
  async resources(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(await listResources(ctx, companyID), page, listSpec(BY_NAME, 'resources', companyID), 'resources');
  }

  @Query(() => ResourceType, { nullable: true, description: 'One resource of the company.' })
  resource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getResource(ctx, companyID, id);
  }

  @Mutation(() => ResourceType, { description: 'Creates a resource (`resources.write`).' })
  createResource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => CreateResourceInput, { description: DOC.inputArg }) input: CreateResourceInput,
  ) {
    return createResource(ctx, companyID, input);
  }

  @Mutation(() => ResourceType, {
    description:
      'Partial update; leaving out `enabled` enables the resource. A stale metaDataUpdate.expectedVersion is `version_conflict`.',
  })
  updateResource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateResourceInput, { description: DOC.inputArg }) input: UpdateResourceInput,
  ) {
    return updateResource(ctx, companyID, id, input);
  }

  @FieldResolver(() => ServiceConnectionType, { description: 'Linked services (disabled ones included), in list order.' })
  async services(@Root() r: ResourceJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, r.companyID, 'services.read');
    const all = (await servicesByResource(ctx).load(catalogKey(r.companyID, r.id))).map(serviceJson);
    return connectionOf(all, page, listSpec(BY_POSITION, 'Resource.services', r.id), 'services');
  }
}

/** Catalog relations of the company type, declared here so that the company context stays unaware of the catalog. */
@Resolver(() => CompanyType)
export class CompanyCatalogResolver {
  @FieldResolver(() => ServiceConnectionType, { description: 'Services of the company, ordered by position, then creation.' })
  async services(@Root() company: CompanyJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, company.id, 'services.read');
    const all = (await servicesByCompany(ctx).load(company.id)).map(serviceJson);
    return connectionOf(all, page, listSpec(BY_POSITION, 'Company.services', company.id), 'services');
  }

  @FieldResolver(() => ResourceConnectionType, { description: 'Resources of the company, by name.' })
  async resources(@Root() company: CompanyJson, @GqlCtx() ctx: Ctx, @Args(() => ConnectionArgs) page: ConnectionArgs) {
    allowNested(ctx, company.id, 'resources.read');
    const all = (await resourcesByCompany(ctx).load(company.id)).map(resourceJson);
    return connectionOf(all, page, listSpec(BY_NAME, 'Company.resources', company.id), 'resources');
  }
}
