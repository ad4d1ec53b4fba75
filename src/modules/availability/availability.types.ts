import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../kernel/graphql-scalars';

@ObjectType('Price')
export class PriceType {
  @Field(() => Int) amount!: number;
  @Field(() => Int) comparedAmount!: number;
  @Field() currency!: string;
}

@ObjectType('AvailableTime')
export class AvailableTimeType {
  @Field(() => Date) startTime!: string;
  @Field() duration!: string;
  @Field(() => PriceType) price!: PriceType;
  @Field(() => Int, { nullable: true }) spotsAvailable?: number;
  @Field(() => Int, { nullable: true }) totalSpots?: number;
  @Field(() => Int, { nullable: true }) bookedSpots?: number;
  @Field(() => JSONObjectScalar, { nullable: true }) bookedSpotsPerTicket?: Record<string, number>;
  @Field(() => JSONObjectScalar, { nullable: true }) totalSpotsPerTicket?: Record<string, number>;
  @Field(() => JSONObjectScalar, { nullable: true }) ticketPrices?: Record<string, unknown>;
}

@ObjectType('ResourceAvailableTimes')
export class ResourceTimesType {
  @Field(() => ID) resourceID!: string;
  @Field(() => [AvailableTimeType]) times!: AvailableTimeType[];
}

@ObjectType('AvailableTimes', { description: 'Available times per resource; `times` is the REST map resourceID -> entries.' })
export class AvailableTimesType {
  @Field() timeZone!: string;
  @Field(() => JSONObjectScalar) times!: Record<string, unknown>;
  @Field(() => [ResourceTimesType]) resources!: ResourceTimesType[];
}

@ObjectType('ResourceAvailableDates')
export class ResourceDatesType {
  @Field(() => ID) resourceID!: string;
  @Field(() => [String]) dates!: string[];
}

@ObjectType('AvailableDates')
export class AvailableDatesType {
  @Field() timeZone!: string;
  @Field(() => JSONObjectScalar) dates!: Record<string, string[]>;
  @Field(() => [ResourceDatesType]) resources!: ResourceDatesType[];
}

@InputType('AvailableTimesInput')
export class AvailableTimesInput {
  @Field(() => Date) from!: Date;
  @Field(() => Date) to!: Date;
  @Field(() => [ID], { nullable: true }) resourceIDs?: string[];
  @Field({ nullable: true, description: 'ISO 8601 duration (flexible, days, sharable)' }) duration?: string;
  @Field(() => Int, { nullable: true }) spots?: number;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'ticketID -> count' }) tickets?: Record<string, number>;
  @Field({ nullable: true, description: 'admin only' }) includePastTimes?: boolean;
}
