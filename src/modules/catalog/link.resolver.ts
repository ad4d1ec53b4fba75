import { Arg, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
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
  @Query(() => ServiceLinksType, { nullable: true, description: 'A service’s resource links and the linked resources.' })
  serviceLinks(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('serviceID', () => ID) serviceID: string) {
    return listServiceLinks(ctx, companyID, serviceID);
  }

  @Query(() => ResourceLinksType, { nullable: true, description: 'A resource’s service links and the linked services.' })
  resourceLinks(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('resourceID', () => ID) resourceID: string) {
    return listResourceLinks(ctx, companyID, resourceID);
  }

  @Mutation(() => ServiceResourceLinkType, { description: 'Links a resource to a service; a second link of the same pair is a conflict.' })
  createServiceResourceLink(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CreateServiceResourceLinkInput) input: CreateServiceResourceLinkInput,
  ) {
    return createLink(ctx, companyID, serviceID, input);
  }

  @Mutation(() => ServiceResourceLinkType)
  updateServiceResourceLink(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateServiceResourceLinkInput) input: UpdateServiceResourceLinkInput,
  ) {
    return updateLink(ctx, companyID, serviceID, id, input);
  }
}
