import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationScalar, JSONObjectScalar, LocalTimeScalar } from '../../kernel/graphql-scalars';

/**
 * GraphQL types of the scheduling rules and slots. Field names are the REST JSON names and the
 * resolvers return the REST JSON objects unchanged. Inputs only check shapes; the services
 * apply every rule, exactly as for REST bodies.
 */

const DAYS_HELP = '7-bit mask, Monday is the high bit: Mon 64, Tue 32, Wed 16, Thu 8, Fri 4, Sat 2, Sun 1';
const LIMITATION_HELP = '{dates: [{start, end}], daysOfWeek, resourceIDs, times: [{start, end}]} (times also as {startTime, endTime})';

@ObjectType('WorkingHoursRange', { description: 'Local wall-clock hours in the company time zone; end may be 24:00.' })
export class WorkingHoursRangeType {
  @Field(() => LocalTimeScalar) start!: string;
  @Field(() => LocalTimeScalar) end!: string;
}

@ObjectType('WorkingHoursDay')
export class WorkingHoursDayType {
  @Field(() => Int, { description: DAYS_HELP }) daysOfWeek!: number;
  @Field(() => [WorkingHoursRangeType]) hours!: WorkingHoursRangeType[];
}

@ObjectType('WorkingHoursRule', {
  description: 'Opening hours of a resource, active in [startTime, endTime); higher priority applies first.',
})
export class WorkingHoursRuleType {
  @Field(() => ID) id!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => [ID], { description: 'empty = every service' }) serviceIDs!: string[];
  @Field(() => Date, { nullable: true }) startTime!: string | null;
  @Field(() => Date, { nullable: true }) endTime!: string | null;
  @Field(() => Int) priority!: number;
  @Field(() => [WorkingHoursDayType], { description: 'normalised: per weekday sorted and merged, weekdays with equal hours grouped' })
  workingHours!: WorkingHoursDayType[];
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('ClosingPeriod', { description: 'When a resource is unavailable: [startTime, endTime).' })
export class ClosingPeriodType {
  @Field(() => ID) id!: string;
  @Field(() => ID) resourceID!: string;
  @Field(() => [ID], { description: 'empty = every service' }) serviceIDs!: string[];
  @Field(() => Date) startTime!: string;
  @Field(() => Date) endTime!: string;
  @Field(() => Int) priority!: number;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('CapacityRule', { description: 'The maximum clients or tickets in a slot of a group or ticket service.' })
export class CapacityRuleType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field({ description: 'group or ticket' }) type!: string;
  @Field(() => Int) priority!: number;
  @Field(() => Int) spots!: number;
  @Field(() => JSONObjectScalar, { description: 'ticketID -> maximum spots' }) spotsPerTicket!: Record<string, number>;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation!: Record<string, unknown> | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@ObjectType('SlotRepeat')
export class SlotRepeatType {
  @Field({ description: 'RRULE evaluated in timeZone wall time' }) rrule!: string;
  @Field() timeZone!: string;
  @Field(() => Date, { nullable: true }) until!: string | null;
}

@ObjectType('Slot', { description: 'A scheduled time of a group or ticket service; one occurrence or an RRULE series.' })
export class SlotType {
  @Field(() => ID) id!: string;
  @Field(() => ID) serviceID!: string;
  @Field(() => ID, { nullable: true, description: 'null: every resource linked to the service' }) resourceID!: string | null;
  @Field(() => Date) startTime!: string;
  @Field(() => DurationScalar) duration!: string;
  @Field(() => String, { nullable: true }) rrule!: string | null;
  @Field({ description: 'single or recurring' }) type!: string;
  @Field(() => SlotRepeatType, { nullable: true }) repeat!: SlotRepeatType | null;
  @Field(() => Date) createdAt!: string;
  @Field(() => Date) updatedAt!: string;
}

@InputType()
export class WorkingHoursRangeInput {
  @Field(() => LocalTimeScalar) start!: string;
  @Field(() => LocalTimeScalar, { description: 'after start; 24:00 allowed' }) end!: string;
}

@InputType()
export class WorkingHoursDayInput {
  @Field(() => Int, { description: DAYS_HELP }) daysOfWeek!: number;
  @Field(() => [WorkingHoursRangeInput], { nullable: true }) hours?: WorkingHoursRangeInput[] | null;
}

@InputType({ description: 'A whole working hours rule (updates replace it).' })
export class WorkingHoursInput {
  @Field(() => Date, { nullable: true }) startTime?: Date | null;
  @Field(() => Date, { nullable: true }) endTime?: Date | null;
  @Field(() => Int, { nullable: true, description: 'default 0' }) priority?: number | null;
  @Field(() => [ID], { nullable: true }) serviceIDs?: string[] | null;
  @Field(() => [WorkingHoursDayInput], { nullable: true }) workingHours?: WorkingHoursDayInput[] | null;
}

@InputType()
export class ClosingPeriodInput {
  @Field(() => Date) startTime!: Date;
  @Field(() => Date) endTime!: Date;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => [ID], { nullable: true }) serviceIDs?: string[] | null;
}

@InputType()
export class SearchClosingPeriodsInput {
  @Field(() => Date) from!: Date;
  @Field(() => Date) to!: Date;
  @Field(() => [ID], { nullable: true, description: 'default: every resource of the company' }) resourceIDs?: string[] | null;
}

@InputType()
export class CapacityRuleInput {
  @Field(() => String, { nullable: true, description: 'group or ticket; default the service type' }) type?: string | null;
  @Field(() => Int, { nullable: true }) priority?: number | null;
  @Field(() => Int) spots!: number;
  @Field(() => JSONObjectScalar, { nullable: true, description: 'ticketID -> maximum spots' }) spotsPerTicket?: Record<
    string,
    unknown
  > | null;
  @Field(() => JSONObjectScalar, { nullable: true, description: LIMITATION_HELP }) limitation?: Record<string, unknown> | null;
}

@InputType()
export class SlotRepeatInput {
  @Field() rrule!: string;
  @Field(() => String, { nullable: true, description: 'IANA zone; default the company time zone' }) timeZone?: string | null;
  @Field(() => Date, { nullable: true }) until?: Date | null;
}

@InputType()
export class CreateSlotInput {
  @Field(() => Date) startTime!: Date;
  @Field(() => DurationScalar, { nullable: true, description: 'default the service duration' }) duration?: string | null;
  @Field(() => ID, { nullable: true, description: 'left out: every resource linked to the service' }) resourceID?: string | null;
  @Field(() => SlotRepeatInput, { nullable: true }) repeat?: SlotRepeatInput | null;
}

@InputType()
export class UpdateSlotInput {
  @Field(() => ID, { nullable: true }) resourceID?: string | null;
  @Field(() => Date, { description: 'the occurrence to change' }) startTime!: Date;
  @Field(() => String, { nullable: true, description: 'single (default) or upcoming' }) updateStrategy?: string | null;
  @Field(() => Date, { nullable: true }) newStartTime?: Date | null;
  @Field(() => DurationScalar, { nullable: true }) newDuration?: string | null;
  @Field(() => SlotRepeatInput, { nullable: true }) newRepeat?: SlotRepeatInput | null;
  @Field(() => ID, { nullable: true }) newResourceID?: string | null;
}

@InputType()
export class DeleteSlotInput {
  @Field(() => ID, { nullable: true }) resourceID?: string | null;
  @Field(() => Date, { description: 'the occurrence to delete' }) startTime!: Date;
  @Field(() => String, { nullable: true, description: 'single (default) or upcoming' }) deleteStrategy?: string | null;
}
