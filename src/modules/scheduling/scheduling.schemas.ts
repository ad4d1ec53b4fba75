import { errors, limitationBody, limitationSchema, S, timeRangeSchema } from '../../kernel/rest';

/**
 * JSON schemas of the scheduling routes. Request
 * schemas check types only; the services check formats and rules, so REST and GraphQL agree.
 */

type JsonSchema = Record<string, unknown>;
const nullable = (type: string | string[]): JsonSchema => ({ type: [...[type].flat(), 'null'] });

const workingDaySchema = S.out({ daysOfWeek: S.int, hours: S.array(timeRangeSchema) });

export const workingHoursSchema = S.out({
  id: S.uuid,
  resourceID: S.uuid,
  serviceIDs: S.uuids,
  startTime: S.nts,
  endTime: S.nts,
  priority: S.int,
  workingHours: S.array(workingDaySchema),
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const closingPeriodSchema = S.out({
  id: S.uuid,
  resourceID: S.uuid,
  serviceIDs: S.uuids,
  startTime: S.ts,
  endTime: S.ts,
  priority: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const capacitySchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  type: { type: 'string', enum: ['group', 'ticket'] },
  priority: S.int,
  spots: S.int,
  spotsPerTicket: { type: 'object', additionalProperties: S.int },
  limitation: limitationSchema,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const slotSchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  resourceID: { type: ['string', 'null'], format: 'uuid' },
  startTime: S.ts,
  duration: S.str,
  rrule: S.nstr,
  type: { type: 'string', enum: ['single', 'recurring'] },
  repeat: {
    type: ['object', 'null'],
    properties: { rrule: S.str, timeZone: S.str, until: S.nts },
    required: ['rrule', 'timeZone', 'until'],
    additionalProperties: false,
  },
  createdAt: S.ts,
  updatedAt: S.ts,
});

const repeatBody: JsonSchema = {
  type: ['object', 'null'],
  properties: { rrule: S.str, timeZone: S.nstr, until: S.nstr },
  additionalProperties: true,
};
const uuidList = { type: ['array', 'null'], items: S.str };

export const bodies = {
  workingHours: S.object({
    startTime: S.nstr,
    endTime: S.nstr,
    priority: nullable('integer'),
    serviceIDs: uuidList,
    workingHours: {
      type: ['array', 'null'],
      items: { type: 'object', properties: { daysOfWeek: S.int, hours: { type: ['array', 'null'], items: { type: 'object' } } } },
    },
  }),
  deleteWorkingHours: { ...S.object({ ids: uuidList }), type: ['object', 'null'] },
  closingPeriod: S.object({ startTime: S.str, endTime: S.str, priority: nullable('integer'), serviceIDs: uuidList }, [
    'startTime',
    'endTime',
  ]),
  searchClosingPeriods: S.object({ companyID: S.nstr, from: S.str, to: S.str, resourceIDs: uuidList }, ['from', 'to']),
  capacity: S.object(
    {
      type: S.nstr,
      priority: nullable('integer'),
      spots: S.int,
      spotsPerTicket: { type: ['object', 'null'], additionalProperties: S.int },
      limitation: limitationBody,
    },
    ['spots'],
  ),
  createSlot: S.object({ startTime: S.str, duration: S.nstr, resourceID: S.nstr, repeat: repeatBody }, ['startTime']),
  updateSlot: S.object(
    {
      resourceID: S.nstr,
      startTime: S.str,
      updateStrategy: { type: ['string', 'null'], enum: ['single', 'upcoming', null] },
      newStartTime: S.nstr,
      newDuration: S.nstr,
      newRepeat: repeatBody,
      newResourceID: S.nstr,
    },
    ['startTime'],
  ),
};

export const query = {
  type: S.object({ type: S.str }),
  deleteSlot: S.object({ resourceID: S.str, startTime: S.str, deleteStrategy: { type: 'string', enum: ['single', 'upcoming'] } }, [
    'startTime',
  ]),
  schedule: S.object({ service_ids: S.str, resource_ids: S.str, from: S.str, to: S.str }, ['service_ids', 'from', 'to']),
};

export const writeErrors = { ...errors, 409: S.error };
