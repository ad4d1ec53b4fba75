import { Arg, Ctx as GqlCtx, FieldResolver, ID, Mutation, Query, Resolver, Root } from 'type-graphql';
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
  ResourceType,
  ServiceResourceLinkType,
  ServiceType,
  TicketType,
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
  @Query(() => [ServiceType], { nullable: true, description: 'Services of a company, ordered by position, then creation.' })
  services(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string) {
    return listServices(ctx, companyID);
  }

  @Query(() => ServiceType, { nullable: true })
  service(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getService(ctx, companyID, id);
  }

  @Mutation(() => ServiceType)
  createService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => CreateServiceInput) input: CreateServiceInput,
  ) {
    return createService(ctx, companyID, input);
  }

  @Mutation(() => ServiceType)
  updateService(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateServiceInput) input: UpdateServiceInput,
  ) {
    return updateService(ctx, companyID, id, input);
  }

  @Mutation(() => ServiceType, { description: 'Changes only the settings sent; null clears one.' })
  updateServiceSettings(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => ServiceSettingsInput) input: ServiceSettingsInput,
  ) {
    return updateServiceSettings(ctx, companyID, id, input);
  }

  @FieldResolver(() => [ResourceType], { description: 'Linked resources (disabled ones included), by name.' })
  async resources(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, s.companyID, 'resources.read');
    return (await resourcesByService(ctx).load(catalogKey(s.companyID, s.id))).map(resourceJson);
  }

  @FieldResolver(() => [TicketType], { description: 'Tickets of the service, oldest first.' })
  async tickets(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, s.companyID, 'services.read');
    return (await ticketsByService(ctx).load(catalogKey(s.companyID, s.id))).map(ticketJson);
  }

  @FieldResolver(() => [ServiceResourceLinkType], { description: 'Resource links of the service.' })
  async links(@Root() s: ServiceJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, s.companyID, 'services.read');
    return (await linksByService(ctx).load(catalogKey(s.companyID, s.id))).map(linkJson);
  }
}

@Resolver(() => ResourceType)
export class ResourceResolver {
  @Query(() => [ResourceType], { nullable: true, description: 'Resources of a company, by name.' })
  resources(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string) {
    return listResources(ctx, companyID);
  }

  @Query(() => ResourceType, { nullable: true })
  resource(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('id', () => ID) id: string) {
    return getResource(ctx, companyID, id);
  }

  @Mutation(() => ResourceType)
  createResource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => CreateResourceInput) input: CreateResourceInput,
  ) {
    return createResource(ctx, companyID, input);
  }

  @Mutation(() => ResourceType, { description: 'Partial update; leaving out `enabled` enables the resource.' })
  updateResource(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateResourceInput) input: UpdateResourceInput,
  ) {
    return updateResource(ctx, companyID, id, input);
  }

  @FieldResolver(() => [ServiceType], { description: 'Linked services (disabled ones included), in list order.' })
  async services(@Root() r: ResourceJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, r.companyID, 'services.read');
    return (await servicesByResource(ctx).load(catalogKey(r.companyID, r.id))).map(serviceJson);
  }
}

/** Catalog relations of the company type, declared here so that the company context stays unaware of the catalog. */
@Resolver(() => CompanyType)
export class CompanyCatalogResolver {
  @FieldResolver(() => [ServiceType], { description: 'Services of the company, ordered by position, then creation.' })
  async services(@Root() company: CompanyJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, company.id, 'services.read');
    return (await servicesByCompany(ctx).load(company.id)).map(serviceJson);
  }

  @FieldResolver(() => [ResourceType], { description: 'Resources of the company, by name.' })
  async resources(@Root() company: CompanyJson, @GqlCtx() ctx: Ctx) {
    allowNested(ctx, company.id, 'resources.read');
    return (await resourcesByCompany(ctx).load(company.id)).map(resourceJson);
  }
}
