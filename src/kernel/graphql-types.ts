import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { JSONScalar, LocalTimeScalar } from './graphql-scalars';

/**
 * Building blocks of the GraphQL schema shared by every module, following the conventions in
 * docs/design/graphql.md: enums spelt as on the REST wire, typed inputs, descriptions (connections: kernel/connection.ts).
 */

/**
 * Cost of a list that is part of one record (its tickets, its per-ticket counts, the parts of a
 * limitation): bounded by the record, so the cost rule does not multiply what is below it as it
 * does for lists that grow (app/graphql.ts). The same `complexity` extension is what
 * graphql-query-complexity's field-extensions estimator reads.
 */
export const PART_OF_RECORD = 1;

/** Descriptions of the fields every record carries. */
export const DOC = {
  id: 'Identifier (UUID, lowercase).',
  companyID: 'The company the record belongs to.',
  createdAt: 'When the record was created.',
  updatedAt: 'When the record was last changed.',
  metaData: 'Merchant-defined JSON object (at most 64 KiB).',
  metaDataVersion: 'Version of metaData: 1 at creation, +1 on every change; send it as expectedVersion to update metaData safely.',
  metaDataUpdate: 'Sets one value of metaData at a dot-separated path, checked against expectedVersion.',
  metaDataInput: 'Merchant-defined JSON object stored with the record (at most 64 KiB, 32 levels).',
  companyArg: 'The company addressed.',
  serviceArg: 'The service addressed.',
  resourceArg: 'The resource addressed.',
  idArg: 'Identifier of the record.',
  inputArg: 'The fields to set.',
  limit: 'Page size, 1 to 100 (default 100).',
  offset: 'Records to skip before the page (default 0).',
  total: 'Number of records matching, over all pages.',
  pageLimit: 'The page size used.',
  pageOffset: 'The offset used.',
  priority: 'Higher priority rules are chosen first; ties go to the most recently created.',
  daysOfWeek: '7-bit mask, Monday is the high bit: Mon 64, Tue 32, Wed 16, Thu 8, Fri 4, Sat 2, Sun 1 (127 every day, 0 or null any day).',
} as const;

/**
 * Registers a closed set of values as a GraphQL enum whose value names are the REST wire values
 * (`no_show`, `partially_refunded`), so both APIs spell them the same. `values` maps each value
 * to its description; the returned object is what `@Field(() => ...)` takes.
 */
export function defineEnum<V extends string>(name: string, description: string, values: Record<V, string>): Record<V, V> {
  const keys = Object.keys(values) as V[];
  const enumObject = Object.fromEntries(keys.map((v) => [v, v])) as Record<V, V>;
  registerEnumType(enumObject, {
    name,
    description,
    valuesConfig: Object.fromEntries(keys.map((v) => [v, { description: values[v] }])) as never,
  });
  return enumObject;
}

@InputType('MetaDataUpdateInput', {
  description:
    'Sets `value` at the dot-separated `path` of metaData (creating objects on the way); a null value removes the key, and path "" replaces ' +
    'the whole object (value must then be an object). Refused with `version_conflict` when metaData is no longer at expectedVersion.',
})
export class MetaDataUpdateInput {
  @Field(() => Int, { description: 'The metaDataVersion the change was computed from.' }) expectedVersion!: number;
  @Field({ description: 'Dot-separated key path (`a.b.c`); "" means the whole object.' }) path!: string;
  @Field(() => JSONScalar, { nullable: true, description: 'The JSON value to set; null removes the key.' }) value?: unknown;
}

@ObjectType('DateRange', { description: 'An inclusive range of dates: `YYYY-MM-DD` (company time zone) or RFC 3339 instants.' })
export class DateRangeType {
  @Field({ description: 'First day (or instant) of the range.' }) start!: string;
  @Field({ description: 'Last day (or instant) of the range, inclusive.' }) end!: string;
}

@ObjectType('TimeRange', { description: 'Local times of day in the company time zone, [start, end).' })
export class TimeRangeType {
  @Field(() => LocalTimeScalar, { description: 'Start time of day.' }) start!: string;
  @Field(() => LocalTimeScalar, { description: 'End time of day (after start; 24:00 allowed).' }) end!: string;
}

@ObjectType('Limitation', { description: 'When a rule applies: every part given must match (dates, weekdays, resources, times of day).' })
export class LimitationType {
  @Field(() => [DateRangeType], {
    complexity: PART_OF_RECORD,
    nullable: true,
    description: 'Date ranges the rule applies in; null: any date.',
  })
  dates!: DateRangeType[] | null;
  @Field(() => Int, { nullable: true, description: DOC.daysOfWeek }) daysOfWeek!: number | null;
  @Field(() => [ID], { nullable: true, description: 'Resources the rule applies to; null: every resource.' }) resourceIDs!: string[] | null;
  @Field(() => [TimeRangeType], {
    complexity: PART_OF_RECORD,
    nullable: true,
    description: 'Times of day the rule applies in; null: all day.',
  })
  times!: TimeRangeType[] | null;
}

@InputType('DateRangeInput', { description: 'An inclusive range of dates: `YYYY-MM-DD` (company time zone) or RFC 3339 instants.' })
export class DateRangeInput {
  @Field({ description: 'First day (or instant) of the range.' }) start!: string;
  @Field({ description: 'Last day (or instant) of the range, inclusive.' }) end!: string;
}

@InputType('TimeRangeInput', { description: 'Local times of day in the company time zone, [start, end).' })
export class TimeRangeInput {
  @Field(() => LocalTimeScalar, { description: 'Start time of day.' }) start!: string;
  @Field(() => LocalTimeScalar, { description: 'End time of day (after start; 24:00 allowed).' }) end!: string;
}

@InputType('LimitationInput', { description: 'When a rule applies: every part given must match; leave a part out to match anything.' })
export class LimitationInput {
  @Field(() => [DateRangeInput], { nullable: true, description: 'Date ranges the rule applies in.' }) dates?: DateRangeInput[] | null;
  @Field(() => Int, { nullable: true, description: DOC.daysOfWeek }) daysOfWeek?: number | null;
  @Field(() => [ID], { nullable: true, description: 'Resources the rule applies to.' }) resourceIDs?: string[] | null;
  @Field(() => [TimeRangeInput], { nullable: true, description: 'Times of day the rule applies in.' }) times?: TimeRangeInput[] | null;
}

/** A stored limitation (REST shape, parts possibly absent) in the GraphQL shape (absent parts null). */
export function limitationOut(l: Record<string, unknown> | null | undefined): LimitationType | null {
  if (!l) return null;
  return {
    dates: (l.dates as DateRangeType[] | undefined) ?? null,
    daysOfWeek: (l.daysOfWeek as number | undefined) ?? null,
    resourceIDs: (l.resourceIDs as string[] | undefined) ?? null,
    times: (l.times as TimeRangeType[] | undefined) ?? null,
  };
}
