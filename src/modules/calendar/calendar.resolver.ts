import { Arg, Ctx as GqlCtx, ID, Mutation, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import { createCalendarFeed, revokeCalendarFeed } from './calendar.service';
import { CalendarFeedType } from './calendar.types';

@Resolver(() => CalendarFeedType)
export class CalendarFeedResolver {
  @Mutation(() => CalendarFeedType, {
    description:
      "Issues the secret calendar feed URL of a resource's bookings (bookings.write), replacing any previous URL; errors: not_found, forbidden.",
  })
  createResourceCalendarFeed(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
  ) {
    return createCalendarFeed(ctx, companyID, resourceID);
  }

  @Mutation(() => Boolean, {
    description:
      "Revokes a resource's calendar feed URL (bookings.write); the old URL answers 404. Errors: not_found (no feed), forbidden.",
  })
  async revokeResourceCalendarFeed(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
  ) {
    await revokeCalendarFeed(ctx, companyID, resourceID);
    return true;
  }

  @Mutation(() => CalendarFeedType, {
    description: "Issues the secret calendar feed URL of all the company's bookings (bookings.write), replacing any previous URL.",
  })
  createCompanyCalendarFeed(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string) {
    return createCalendarFeed(ctx, companyID, null);
  }

  @Mutation(() => Boolean, {
    description:
      "Revokes the company's calendar feed URL (bookings.write); the old URL answers 404. Errors: not_found (no feed), forbidden.",
  })
  async revokeCompanyCalendarFeed(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string) {
    await revokeCalendarFeed(ctx, companyID, null);
    return true;
  }
}
