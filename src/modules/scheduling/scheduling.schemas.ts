import { errors, limitationBody, limitationSchema, S, timeRangeSchema } from '../../kernel/rest';
import { CAPACITY_TYPES } from './capacity.service';
import { SLOT_TYPES } from './slot.input';
import { UPDATE_STRATEGIES } from './slot.service';

/**
 * JSON schemas of the scheduling routes. Request
 * schemas check types only; the services check formats and rules, so REST and GraphQL agree.
 */

type JsonSchema = Record<string, unknown>;
const nullable = (type: string | string[]): JsonSchema => ({ type: [...[type].flat(), 'null'] });

const workingDaySchema = S.named('WorkingHoursDay', S.out({ daysOfWeek: S.int, hours: S.array(timeRangeSchema) }));

export const workingHoursSchema = S.named(
  'WorkingHoursRule',
  S.out({
    id: S.uuid,
    resourceID: S.uuid,
    serviceIDs: S.uuids,
    startTime: S.nts,
    endTime: S.nts,
    priority: S.int,
    workingHours: S.array(workingDaySchema),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const closingPeriodSchema = S.named(
  'ClosingPeriod',
  S.out({
    id: S.uuid,
    resourceID: S.uuid,
    serviceIDs: S.uuids,
    startTime: S.ts,
    endTime: S.ts,
    priority: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const capacitySchema = S.named(
  'CapacityRule',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    type: S.oneOf(CAPACITY_TYPES),
    priority: S.int,
    spots: S.int,
    spotsPerTicket: { type: 'object', description: 'Spots of a slot per ticket id (ticket services).', additionalProperties: S.int },
    limitation: limitationSchema,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const slotSchema = S.named(
  'Slot',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    resourceID: { type: ['string', 'null'], format: 'uuid' },
    startTime: S.ts,
    duration: S.str,
    rrule: S.nstr,
    type: S.oneOf(SLOT_TYPES),
    repeat: S.nullable(S.named('SlotRepeat', S.out({ rrule: S.str, timeZone: S.str, until: S.nts }))),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const repeatBody: JsonSchema = S.nullable(
  S.named('SlotRepeatInput', { type: 'object', properties: { rrule: S.str, timeZone: S.nstr, until: S.nstr }, additionalProperties: true }),
);
const uuidList = { type: ['array', 'null'], items: S.str };

export const bodies = {
  workingHours: S.named(
    'WorkingHoursInput',
    S.object({
      startTime: S.nstr,
      endTime: S.nstr,
      priority: nullable('integer'),
      serviceIDs: uuidList,
      workingHours: {
        type: ['array', 'null'],
        items: S.named('WorkingHoursDayInput', {
          type: 'object',
          properties: {
            daysOfWeek: S.int,
            hours: {
              type: ['array', 'null'],
              description: 'Opening hours of those days: `{start, end}` times of day (`HH:MM`).',
              items: { type: 'object' },
            },
          },
        }),
      },
    }),
  ),
  deleteWorkingHours: {
    ...S.object({ ids: { ...uuidList, description: 'The rules to delete; left out, every rule of the resource.' } }),
    type: ['object', 'null'],
  },
  closingPeriod: S.named(
    'ClosingPeriodInput',
    S.object({ startTime: S.str, endTime: S.str, priority: nullable('integer'), serviceIDs: uuidList }, ['startTime', 'endTime']),
  ),
  searchClosingPeriods: S.named(
    'SearchClosingPeriodsInput',
    S.object(
      {
        companyID: { ...S.nstr, description: 'Ignored: the company is the one in the path.' },
        from: S.str,
        to: S.str,
        resourceIDs: uuidList,
      },
      ['from', 'to'],
    ),
  ),
  capacity: S.named(
    'CapacityRuleInput',
    S.object(
      {
        type: S.choice(CAPACITY_TYPES, true),
        priority: nullable('integer'),
        spots: S.int,
        spotsPerTicket: {
          type: ['object', 'null'],
          description: 'Spots of a slot per ticket id (ticket services).',
          additionalProperties: S.int,
        },
        limitation: limitationBody,
      },
      ['spots'],
    ),
  ),
  createSlot: S.named(
    'CreateSlotInput',
    S.object({ startTime: S.str, duration: S.nstr, resourceID: S.nstr, repeat: repeatBody }, ['startTime']),
  ),
  updateSlot: S.named(
    'UpdateSlotInput',
    S.object(
      {
        resourceID: S.nstr,
        startTime: S.str,
        updateStrategy: S.nOneOf(UPDATE_STRATEGIES),
        newStartTime: S.nstr,
        newDuration: S.nstr,
        newRepeat: repeatBody,
        newResourceID: S.nstr,
      },
      ['startTime'],
    ),
  ),
};

export const query = {
  type: S.object({ type: { ...S.choice(CAPACITY_TYPES), description: 'Only the rules of this type.' } }),
  deleteSlot: S.named(
    'DeleteSlotInput',
    S.object({ resourceID: S.str, startTime: S.str, deleteStrategy: S.oneOf(UPDATE_STRATEGIES) }, ['startTime']),
  ),
  schedule: S.object(
    {
      service_ids: { ...S.str, description: 'The services whose slots to list, comma-separated ids.' },
      resource_ids: { ...S.str, description: 'Only the occurrences on these resources, comma-separated ids.' },
      from: { ...S.str, description: 'Start of the window (RFC 3339 instant).' },
      to: { ...S.str, description: 'End of the window (RFC 3339 instant).' },
    },
    ['service_ids', 'from', 'to'],
  ),
};

export const writeErrors = { ...errors, 409: S.error };
