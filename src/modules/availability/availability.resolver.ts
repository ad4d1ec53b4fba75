import { Arg, Ctx as GqlCtx, ID, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { adminDates, adminTimes, clientDates, clientTimes } from './availability.service';
import { DOC } from '../../kernel/graphql-types';
import { AvailableDatesType, AvailableTimesInput, AvailableTimesType, timesInputOf } from './availability.types';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * Each resource's `times` resolves one turn of the event loop after the previous resource's,
 * so GraphQL completes a long answer resource by resource, with other requests served in
 * between, instead of in one blocking pass.
 */
export const withTimeList = (r: { timeZone: string; times: Record<string, { startTime: string }[]> }) => {
  let turn = Promise.resolve();
  return {
    timeZone: r.timeZone,
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
  timeZone: r.timeZone,
  resources: Object.entries(r.dates).map(([resourceID, dates]) => ({ resourceID, dates })),
});

@Resolver()
export class AvailabilityResolver {
  @Query(() => AvailableTimesType, {
    nullable: true,
    description: 'Available times of a service (admin view: `includePastTimes` honoured).',
  })
  async availableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => AvailableTimesInput, { description: 'The window and what to book.' }) input: AvailableTimesInput,
  ) {
    return withTimeList(await adminTimes(ctx, companyID, serviceID, timesInputOf(input)));
  }

  @Query(() => AvailableDatesType, { nullable: true, description: 'Dates with at least one available time (admin view).' })
  async availableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => AvailableTimesInput, { description: 'The window and what to book.' }) input: AvailableTimesInput,
  ) {
    return withDateList(await adminDates(ctx, companyID, serviceID, timesInputOf(input)));
  }

  @Query(() => AvailableTimesType, {
    nullable: true,
    description: 'Available times of an enabled service, never in the past (client interface).',
  })
  async clientAvailableTimes(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => AvailableTimesInput, { description: 'The window and what to book.' }) input: AvailableTimesInput,
  ) {
    return withTimeList(await clientTimes(ctx, companyID, serviceID, timesInputOf(input)));
  }

  @Query(() => AvailableDatesType, { nullable: true, description: 'Dates with at least one available time (client interface).' })
  async clientAvailableDates(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => AvailableTimesInput, { description: 'The window and what to book.' }) input: AvailableTimesInput,
  ) {
    return withDateList(await clientDates(ctx, companyID, serviceID, timesInputOf(input)));
  }
}
