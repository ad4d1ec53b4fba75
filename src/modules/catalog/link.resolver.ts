import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC, PageArgs } from '../../kernel/graphql-types';
import { parsePage } from '../../shared/pagination';
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
  @Query(() => ServiceLinksType, { nullable: true, description: 'A page of a service’s resource links and the resources they link.' })
  async serviceLinks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    const p = parsePage(page);
    const all = await listServiceLinks(ctx, companyID, serviceID);
    const links = all.links.slice(p.offset, p.offset + p.limit);
    const wanted = new Set(links.map((l) => l.resourceID));
    return { ...p, total: all.links.length, links, resources: all.resources.filter((r) => wanted.has(r.id)) };
  }

  @Query(() => ResourceLinksType, { nullable: true, description: 'A page of a resource’s service links and the services they link.' })
  async resourceLinks(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    const p = parsePage(page);
    const all = await listResourceLinks(ctx, companyID, resourceID);
    const links = all.links.slice(p.offset, p.offset + p.limit);
    const wanted = new Set(links.map((l) => l.serviceID));
    return { ...p, total: all.links.length, links, services: all.services.filter((s) => wanted.has(s.id)) };
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
