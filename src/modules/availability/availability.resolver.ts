import { Arg, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { adminDates, adminTimes, clientDates, clientTimes } from './availability.service';
import { AvailableDatesType, AvailableTimesInput, AvailableTimesType } from './availability.types';

const withTimeList = (r: { timeZone: string; times: Record<string, unknown[]> }) => ({
  ...r,
  resources: Object.entries(r.times).map(([resourceID, times]) => ({ resourceID, times })),
});
const withDateList = (r: { timeZone: string; dates: Record<string, string[]> }) => ({
  ...r,
  resources: Object.entries(r.dates).map(([resourceID, dates]) => ({ resourceID, dates })),
});
// The GraphQL DateTime scalar hands over Date objects; the service accepts both forms.
const plain = (i: AvailableTimesInput) => ({ ...i });

@Resolver()
export class AvailabilityResolver {
  @Query(() => AvailableTimesType, { nullable: true })
  async availableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withTimeList(await adminTimes(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableDatesType, { nullable: true })
  async availableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withDateList(await adminDates(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableTimesType, { nullable: true })
  async clientAvailableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withTimeList(await clientTimes(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableDatesType, { nullable: true })
  async clientAvailableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withDateList(await clientDates(ctx, companyID, serviceID, plain(input)));
  }
}
