import { Arg, Ctx as GqlCtx, Field, ID, ObjectType, Resolver, Root, Subscription } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { DOC } from '../../kernel/graphql-types';
import type { AvailabilityChangeJson } from './availability-live';
import { availabilityChanges } from './availability-live.service';

@ObjectType('AvailabilityChange', {
  description: 'Part of a watched window whose available times may have changed: fetch them again (availableTimes) for it.',
})
export class AvailabilityChangeType {
  @Field(() => ID, { description: 'The service.' }) serviceID!: string;
  @Field(() => [ID], { description: 'Its linked resources whose times may have changed.' }) resourceIDs!: string[];
  @Field(() => Date, { description: 'Start of the changed part (within the watched window).' }) from!: Date;
  @Field(() => Date, { description: 'End of the changed part (exclusive, within the watched window).' }) to!: Date;
}

interface Args {
  companyID: string;
  serviceID: string;
  from: Date;
  to: Date;
}

@Resolver()
export class AvailabilityLiveResolver {
  @Subscription(() => AvailabilityChangeType, {
    description:
      'Tells when available times of a service in [from, to) may have changed (bookings, cancellations, holds, working hours, ' +
      'closings, rules, links), within a second of the commit, so that a booking page fetches them again; it does not send times. ' +
      'Client interface: a client token of the company, or an API key with client.read. GraphQL over WebSocket on /graphql.',
    subscribe: ({ args, context }) => {
      const a = args as Args;
      return availabilityChanges(context as Ctx, a.companyID, a.serviceID, a.from, a.to);
    },
  })
  availabilityChanged(
    @Root() change: AvailabilityChangeJson,
    @GqlCtx() _ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) _companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) _serviceID: string,
    @Arg('from', () => Date, { description: 'Start of the watched window.' }) _from: Date,
    @Arg('to', () => Date, { description: 'End of the watched window (exclusive).' }) _to: Date,
  ): AvailabilityChangeJson {
    return change;
  }
}
