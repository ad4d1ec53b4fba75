import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec } from '../../kernel/connection';
import { BY_CREATION } from './catalog.lists';
import type { Ctx } from '../../kernel/context';
import {
  CreateServiceResourceLinkInput,
  UpdateServiceResourceLinkInput,
  ResourceLinksType,
  ServiceLinksType,
  ServiceResourceLinkType,
} from './catalog.types';
import { createLink, listResourceLinks, listServiceLinks, updateLink } from './link.service';

@Resolver(() => ServiceResourceLinkType)
export class ServiceResourceLinkResolver {
  @Query(() => ServiceLinksType, {
    nullable: true,
    description: 'A service’s resource links (oldest first) and the resources the page’s links link.',
  })
  async serviceLinks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    const all = await listServiceLinks(ctx, companyID, serviceID);
    const conn = connectionOf(all.links, page, listSpec(BY_CREATION, 'serviceLinks', serviceID), 'links');
    const wanted = new Set(conn.nodes.map((l) => l.resourceID));
    return { ...conn, resources: all.resources.filter((r) => wanted.has(r.id)) };
  }

  @Query(() => ResourceLinksType, {
    nullable: true,
    description: 'A resource’s service links (oldest first) and the services the page’s links link.',
  })
  async resourceLinks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    const all = await listResourceLinks(ctx, companyID, resourceID);
    const conn = connectionOf(all.links, page, listSpec(BY_CREATION, 'resourceLinks', resourceID), 'links');
    const wanted = new Set(conn.nodes.map((l) => l.serviceID));
    return { ...conn, services: all.services.filter((s) => wanted.has(s.id)) };
  }

  @Mutation(() => ServiceResourceLinkType, { description: 'Links a resource to a service; a second link of the same pair is a conflict.' })
  createServiceResourceLink(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CreateServiceResourceLinkInput, { description: DOC.inputArg }) input: CreateServiceResourceLinkInput,
  ) {
    return createLink(ctx, companyID, serviceID, input);
  }

  @Mutation(() => ServiceResourceLinkType, { description: 'Changes the related resources of a link.' })
  updateServiceResourceLink(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateServiceResourceLinkInput, { description: DOC.inputArg }) input: UpdateServiceResourceLinkInput,
  ) {
    return updateLink(ctx, companyID, serviceID, id, input);
  }
}
