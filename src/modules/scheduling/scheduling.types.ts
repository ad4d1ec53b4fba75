import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { DurationScalar, LocalTimeScalar } from '../../kernel/graphql-scalars';
import { defineEnum, DOC, LimitationInput, LimitationType, limitationOut, PART_OF_RECORD } from '../../kernel/graphql-types';
import { connectionType } from '../../kernel/connection';

/**
 * GraphQL types of the scheduling rules and slots. Field names are the REST JSON names and the
 * resolvers return the REST JSON objects; REST maps are lists here. Inputs only check shapes;
 * the services apply every rule, exactly as for REST bodies.
 */

export const CapacityRuleTypeEnum = defineEnum('CapacityRuleType', 'What a capacity rule limits.', {
  group: 'Spots of a group service.',
  ticket: 'Spots of a ticket service, in total and per ticket.',
});

export const SlotTypeEnum = defineEnum('SlotType', 'Whether a slot is one occurrence or a series.', {
  single: 'One occurrence at startTime.',
  recurring: 'A series following an RRULE.',
});

export const UpdateStrategyEnum = defineEnum('UpdateStrategy', 'Which occurrences of a series a change applies to.', {
  single: 'Only the occurrence addressed (the default).',
  upcoming: 'The occurrence addressed and every later one.',
});

@ObjectType('WorkingHoursRange', { description: 'Local wall-clock hours in the company time zone; end may be 24:00.' })
export class WorkingHoursRangeType {
  @Field(() => LocalTimeScalar, { description: 'Opening time of day.' }) start!: string;
  @Field(() => LocalTimeScalar, { description: 'Closing time of day (after start; 24:00 allowed).' }) end!: string;
}

@ObjectType('WorkingHoursDay', { description: 'Hours of the weekdays in a mask.' })
export class WorkingHoursDayType {
  @Field(() => Int, { description: DOC.daysOfWeek }) daysOfWeek!: number;
  @Field(() => [WorkingHoursRangeType], { description: 'Open hours of those days, sorted.' }) hours!: WorkingHoursRangeType[];
}

@ObjectType('WorkingHoursRule', {
  description: 'Opening hours of a resource, active in [startTime, endTime); higher priority applies first.',
})
export class WorkingHoursRuleType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The resource the hours belong to.' }) resourceID!: string;
  @Field(() => [ID], { description: 'empty = every service' }) serviceIDs!: string[];
  @Field(() => Date, { nullable: true, description: 'When the rule starts to apply; null: always.' }) startTime!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the rule stops applying; null: never.' }) endTime!: string | null;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => [WorkingHoursDayType], { description: 'normalised: per weekday sorted and merged, weekdays with equal hours grouped' })
  workingHours!: WorkingHoursDayType[];
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('ClosingPeriod', { description: 'When a resource is unavailable: [startTime, endTime).' })
export class ClosingPeriodType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The resource that is closed.' }) resourceID!: string;
  @Field(() => [ID], { description: 'empty = every service' }) serviceIDs!: string[];
  @Field(() => Date, { description: 'Start of the closed period.' }) startTime!: string;
  @Field(() => Date, { description: 'End of the closed period (exclusive).' }) endTime!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('TicketSpots', { description: 'A number of spots of one ticket.' })
export class TicketSpotsType {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'Spots of that ticket.' }) spots!: number;
}

@InputType('TicketSpotsInput', { description: 'A number of spots of one ticket.' })
export class TicketSpotsInput {
  @Field(() => ID, { description: 'The ticket.' }) ticketID!: string;
  @Field(() => Int, { description: 'Spots of that ticket.' }) spots!: number;
}

@ObjectType('CapacityRule', { description: 'The maximum clients or tickets in a slot of a group or ticket service.' })
export class CapacityRuleType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The service limited.' }) serviceID!: string;
  @Field(() => CapacityRuleTypeEnum, { description: 'What the rule limits.' }) type!: string;
  @Field(() => Int, { description: DOC.priority }) priority!: number;
  @Field(() => Int, { description: 'Spots of a slot in total.' }) spots!: number;
  spotsPerTicket!: Record<string, number>;
  @Field(() => [TicketSpotsType], {
    name: 'spotsPerTicket',
    complexity: PART_OF_RECORD,
    description: 'Maximum spots per ticket (ticket rules).',
  })
  ticketSpots(): TicketSpotsType[] {
    return Object.entries(this.spotsPerTicket ?? {}).map(([ticketID, spots]) => ({ ticketID, spots }));
  }
  limitation!: Record<string, unknown> | null;
  @Field(() => LimitationType, { name: 'limitation', nullable: true, description: 'When the rule applies; null: always.' })
  limitationOut(): LimitationType | null {
    return limitationOut(this.limitation);
  }
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

@ObjectType('SlotRepeat', { description: 'How a slot repeats.' })
export class SlotRepeatType {
  @Field({ description: 'RRULE evaluated in timeZone wall time' }) rrule!: string;
  @Field({ description: 'IANA zone whose wall clock the series follows.' }) timeZone!: string;
  @Field(() => Date, { nullable: true, description: 'Last instant of the series; null: as the RRULE says.' }) until!: string | null;
}

@ObjectType('Slot', { description: 'A scheduled time of a group or ticket service; one occurrence or an RRULE series.' })
export class SlotType {
  @Field(() => ID, { description: DOC.id }) id!: string;
  @Field(() => ID, { description: 'The service scheduled.' }) serviceID!: string;
  @Field(() => ID, { nullable: true, description: 'null: every resource linked to the service' }) resourceID!: string | null;
  @Field(() => Date, { description: 'Start of the (first) occurrence.' }) startTime!: string;
  @Field(() => DurationScalar, { description: 'Length of each occurrence.' }) duration!: string;
  @Field(() => String, { nullable: true, description: 'The RRULE of a recurring slot; null for a single one.' }) rrule!: string | null;
  @Field(() => SlotTypeEnum, { description: 'single or recurring' }) type!: string;
  @Field(() => SlotRepeatType, { nullable: true, description: 'How the slot repeats; null for a single one.' })
  repeat!: SlotRepeatType | null;
  @Field(() => Date, { description: DOC.createdAt }) createdAt!: string;
  @Field(() => Date, { description: DOC.updatedAt }) updatedAt!: string;
}

export const WorkingHoursRuleConnectionType = connectionType(
  'WorkingHoursRule',
  () => WorkingHoursRuleType,
  'Working hours rules, in the order they are chosen.',
  'workingHours',
);
export const ClosingPeriodConnectionType = connectionType(
  'ClosingPeriod',
  () => ClosingPeriodType,
  'Closing periods, by start.',
  'closingPeriods',
);
export const CapacityRuleConnectionType = connectionType(
  'CapacityRule',
  () => CapacityRuleType,
  'Capacity rules, in the order they are chosen.',
  'capacityRules',
);
export const SlotConnectionType = connectionType('Slot', () => SlotType, 'Slots (or of their occurrences), by start.', 'slots');

@InputType({ description: 'Open hours of a day.' })
export class WorkingHoursRangeInput {
  @Field(() => LocalTimeScalar, { description: 'Opening time of day.' }) start!: string;
  @Field(() => LocalTimeScalar, { description: 'after start; 24:00 allowed' }) end!: string;
}

@InputType({ description: 'Hours of the weekdays in a mask.' })
export class WorkingHoursDayInput {
  @Field(() => Int, { description: DOC.daysOfWeek }) daysOfWeek!: number;
  @Field(() => [WorkingHoursRangeInput], { nullable: true, description: 'Open hours of those days; none: closed.' })
  hours?: WorkingHoursRangeInput[] | null;
}

@InputType({ description: 'A whole working hours rule (updates replace it).' })
export class WorkingHoursInput {
  @Field(() => Date, { nullable: true, description: 'When the rule starts to apply; left out: always.' }) startTime?: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the rule stops applying; left out: never.' }) endTime?: Date | null;
  @Field(() => Int, { nullable: true, description: 'default 0' }) priority?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Services the hours apply to; left out or empty: every service.' })
  serviceIDs?: string[] | null;
  @Field(() => [WorkingHoursDayInput], { nullable: true, description: 'The hours per weekday.' }) workingHours?:
    WorkingHoursDayInput[] | null;
}

@InputType({ description: 'A new closing period of a resource.' })
export class ClosingPeriodInput {
  @Field(() => Date, { description: 'Start of the closed period.' }) startTime!: Date;
  @Field(() => Date, { description: 'End of the closed period (exclusive, after start).' }) endTime!: Date;
  @Field(() => Int, { nullable: true, description: DOC.priority }) priority?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Services closed; left out or empty: every service.' }) serviceIDs?: string[] | null;
}

@InputType({ description: 'Which closing periods to find.' })
export class SearchClosingPeriodsInput {
  @Field(() => Date, { description: 'Start of the window.' }) from!: Date;
  @Field(() => Date, { description: 'End of the window (exclusive).' }) to!: Date;
  @Field(() => [ID], { nullable: true, description: 'default: every resource of the company' }) resourceIDs?: string[] | null;
}

@InputType({ description: 'A new capacity rule.' })
export class CapacityRuleInput {
  @Field(() => CapacityRuleTypeEnum, { nullable: true, description: 'group or ticket; default the service type' }) type?: string | null;
  @Field(() => Int, { nullable: true, description: DOC.priority }) priority?: number | null;
  @Field(() => Int, { description: 'Spots of a slot in total.' }) spots!: number;
  @Field(() => [TicketSpotsInput], { nullable: true, description: 'Maximum spots per ticket (ticket rules).' })
  spotsPerTicket?: TicketSpotsInput[] | null;
  @Field(() => LimitationInput, { nullable: true, description: 'When the rule applies; left out: always.' })
  limitation?: LimitationInput | null;
}

/** Ticket spots as the REST map the services read; a ticket named twice is reported by the service as usual. */
export function ticketSpotsMap(list: TicketSpotsInput[] | null | undefined): Record<string, number> | null | undefined {
  if (!list) return list as null | undefined;
  return Object.fromEntries(list.map((t) => [t.ticketID, t.spots]));
}

@InputType({ description: 'How a new slot repeats.' })
export class SlotRepeatInput {
  @Field({ description: 'iCalendar RRULE (FREQ, INTERVAL, BYDAY, COUNT, UNTIL ...).' }) rrule!: string;
  @Field(() => String, { nullable: true, description: 'IANA zone; default the company time zone' }) timeZone?: string | null;
  @Field(() => Date, { nullable: true, description: 'Last instant of the series.' }) until?: Date | null;
}

@InputType({ description: 'A new slot.' })
export class CreateSlotInput {
  @Field(() => Date, { description: 'Start of the (first) occurrence.' }) startTime!: Date;
  @Field(() => DurationScalar, { nullable: true, description: 'default the service duration' }) duration?: string | null;
  @Field(() => ID, { nullable: true, description: 'left out: every resource linked to the service' }) resourceID?: string | null;
  @Field(() => SlotRepeatInput, { nullable: true, description: 'How the slot repeats; left out: one occurrence.' })
  repeat?: SlotRepeatInput | null;
}

@InputType({ description: 'A change of one occurrence of a slot (or of it and the later ones).' })
export class UpdateSlotInput {
  @Field(() => ID, { nullable: true, description: 'The resource of the occurrence (slots on every resource: any linked one).' })
  resourceID?: string | null;
  @Field(() => Date, { description: 'the occurrence to change' }) startTime!: Date;
  @Field(() => UpdateStrategyEnum, { nullable: true, description: 'single (default) or upcoming' }) updateStrategy?: string | null;
  @Field(() => Date, { nullable: true, description: 'New start of the occurrence.' }) newStartTime?: Date | null;
  @Field(() => DurationScalar, { nullable: true, description: 'New length.' }) newDuration?: string | null;
  @Field(() => SlotRepeatInput, { nullable: true, description: 'New repetition (upcoming).' }) newRepeat?: SlotRepeatInput | null;
  @Field(() => ID, { nullable: true, description: 'New resource.' }) newResourceID?: string | null;
}

@InputType({ description: 'Which occurrence of a slot to delete.' })
export class DeleteSlotInput {
  @Field(() => ID, { nullable: true, description: 'The resource of the occurrence.' }) resourceID?: string | null;
  @Field(() => Date, { description: 'the occurrence to delete' }) startTime!: Date;
  @Field(() => UpdateStrategyEnum, { nullable: true, description: 'single (default) or upcoming' }) deleteStrategy?: string | null;
}
