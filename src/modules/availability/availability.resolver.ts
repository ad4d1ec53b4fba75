import { Arg, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { adminDates, adminTimes, clientDates, clientTimes } from './availability.service';
import { AvailableDatesType, AvailableTimesInput, AvailableTimesType } from './availability.types';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * Each resource's `times` resolves one turn of the event loop after the previous resource's,
 * so GraphQL completes a long answer resource by resource, with other requests served in
 * between, instead of in one blocking pass.
 */
const withTimeList = (r: { timeZone: string; times: Record<string, { startTime: string }[]> }) => {
  let turn = Promise.resolve();
  return {
    ...r,
    resources: Object.entries(r.times).map(([resourceID, times]) => ({
      resourceID,
      get times() {
        turn = turn.then(nextTurn);
        // Date objects serialise much faster than re-parsing the REST timestamp strings
        return turn.then(() => times.map((e) => ({ ...e, startTime: new Date(e.startTime) })));
      },
    })),
  };
};
const withDateList = (r: { timeZone: string; dates: Record<string, string[]> }) => ({
  ...r,
  resources: Object.entries(r.dates).map(([resourceID, dates]) => ({ resourceID, dates })),
});
// The GraphQL DateTime scalar hands over Date objects; the service accepts both forms.
const plain = (i: AvailableTimesInput) => ({ ...i });

@Resolver()
export class AvailabilityResolver {
  @Query(() => AvailableTimesType)
  async availableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withTimeList(await adminTimes(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableDatesType)
  async availableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withDateList(await adminDates(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableTimesType)
  async clientAvailableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withTimeList(await clientTimes(ctx, companyID, serviceID, plain(input)));
  }

  @Query(() => AvailableDatesType)
  async clientAvailableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => AvailableTimesInput) input: AvailableTimesInput,
  ) {
    return withDateList(await clientDates(ctx, companyID, serviceID, plain(input)));
  }
}
