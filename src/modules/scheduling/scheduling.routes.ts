import type { FastifyInstance } from 'fastify';
import { csv, defineRoutes, errors, S } from '../../kernel/rest';
import { resourceSchema, ticketSchema } from '../catalog/catalog.schemas';
import { createCapacityRule, listCapacityRules } from './capacity.service';
import { createClosingPeriod, searchClosingPeriods } from './closing-period.service';
import { bodies, capacitySchema, closingPeriodSchema, query, slotSchema, workingHoursSchema, writeErrors } from './scheduling.schemas';
import { createSlot, deleteSlot, listSlots, updateSlot } from './slot.service';
import { slotSchedule } from './slot-schedule.service';
import { createWorkingHours, deleteWorkingHours, listWorkingHours, updateWorkingHours } from './working-hours.service';

type P = { cid: string; service_id: string; resource_id: string; rule_id: string };
type Q = Record<string, string | undefined>;

const C = '/v1/companies/:cid';
const SVC = `${C}/services/:service_id`;
const RES = `${C}/resources/:resource_id`;

const closingPeriodsByResource = S.out({
  closingPeriods: {
    type: 'object',
    description: 'The closing periods overlapping the range, by resource id (every resource searched has a list, possibly empty).',
    additionalProperties: S.array(closingPeriodSchema),
  },
});
const capacityList = S.out({
  capacities: { ...S.array(capacitySchema), description: 'The capacity rules of the service.' },
  resources: { ...S.array(resourceSchema), description: 'The resources linked to the service.' },
  tickets: { ...S.array(ticketSchema), description: 'The tickets the rules name in spotsPerTicket.' },
});

export function schedulingRoutes(app: FastifyInstance): void {
  const p = (req: { params: unknown }) => req.params as P;
  const q = (req: { query: unknown }) => (req.query ?? {}) as Q;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  defineRoutes(app, [
    // Working hours
    {
      method: 'GET',
      url: `${RES}/working-hours`,
      operationId: 'listWorkingHours',
      auth: 'key',
      summary: 'List working hours',
      params: S.params('cid', 'resource_id'),
      response: { 200: S.array(workingHoursSchema), ...errors },
      handler: (ctx, req) => listWorkingHours(ctx, p(req).cid, p(req).resource_id),
    },
    {
      method: 'POST',
      url: `${RES}/working-hours`,
      operationId: 'createWorkingHours',
      auth: 'key',
      summary: 'Create working hours',
      status: 201,
      params: S.params('cid', 'resource_id'),
      body: bodies.workingHours,
      response: { 201: workingHoursSchema, ...writeErrors },
      handler: (ctx, req) => createWorkingHours(ctx, p(req).cid, p(req).resource_id, body(req)),
    },
    {
      method: 'PUT',
      url: `${RES}/working-hours/:rule_id`,
      operationId: 'updateWorkingHours',
      auth: 'key',
      summary: 'Update (replace) working hours',
      params: S.params('cid', 'resource_id', 'rule_id'),
      body: bodies.workingHours,
      response: { 200: workingHoursSchema, ...writeErrors },
      handler: (ctx, req) => updateWorkingHours(ctx, p(req).cid, p(req).resource_id, p(req).rule_id, body(req)),
    },
    {
      method: 'DELETE',
      url: `${RES}/working-hours`,
      operationId: 'deleteWorkingHours',
      auth: 'key',
      summary: 'Delete working hours (the listed ids, or all of the resource without ids)',
      status: 204,
      params: S.params('cid', 'resource_id'),
      body: bodies.deleteWorkingHours,
      response: { 204: { type: 'null' }, ...errors },
      handler: (ctx, req) => deleteWorkingHours(ctx, p(req).cid, p(req).resource_id, body(req)),
    },
    // Closing periods
    {
      method: 'POST',
      url: `${RES}/closing-periods`,
      operationId: 'createClosingPeriod',
      auth: 'key',
      summary: 'Create a closing period',
      status: 201,
      params: S.params('cid', 'resource_id'),
      body: bodies.closingPeriod,
      response: { 201: closingPeriodSchema, ...errors },
      handler: (ctx, req) => createClosingPeriod(ctx, p(req).cid, p(req).resource_id, body(req)),
    },
    {
      method: 'POST',
      url: `${C}/closing-periods/search`,
      operationId: 'searchClosingPeriods',
      auth: 'key',
      summary: 'List closing periods within a date range',
      params: S.params('cid'),
      body: bodies.searchClosingPeriods,
      response: { 200: closingPeriodsByResource, ...errors },
      handler: (ctx, req) => searchClosingPeriods(ctx, p(req).cid, body(req)),
    },
    // Capacity rules
    {
      method: 'GET',
      url: `${SVC}/capacities`,
      operationId: 'listCapacityRules',
      auth: 'key',
      summary: 'List capacity rules',
      params: S.params('cid', 'service_id'),
      querystring: query.type,
      response: {
        200: capacityList,
        ...errors,
      },
      handler: (ctx, req) => listCapacityRules(ctx, p(req).cid, p(req).service_id, q(req).type),
    },
    {
      method: 'POST',
      url: `${SVC}/capacities`,
      operationId: 'createCapacityRule',
      auth: 'key',
      summary: 'Create a capacity rule',
      status: 201,
      params: S.params('cid', 'service_id'),
      body: bodies.capacity,
      response: { 201: capacitySchema, ...errors },
      handler: (ctx, req) => createCapacityRule(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    // Slots
    {
      method: 'GET',
      url: `${SVC}/slots`,
      operationId: 'listSlots',
      auth: 'key',
      summary: 'List slots for a service',
      params: S.params('cid', 'service_id'),
      response: { 200: S.array(slotSchema), ...errors },
      handler: (ctx, req) => listSlots(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'POST',
      url: `${SVC}/slots`,
      operationId: 'createSlot',
      auth: 'key',
      summary: 'Create slot',
      status: 201,
      params: S.params('cid', 'service_id'),
      body: bodies.createSlot,
      response: { 201: slotSchema, ...errors },
      handler: (ctx, req) => createSlot(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'PATCH',
      url: `${SVC}/slots`,
      operationId: 'updateSlot',
      auth: 'key',
      summary: 'Update slot (one occurrence or it and the upcoming ones)',
      params: S.params('cid', 'service_id'),
      body: bodies.updateSlot,
      response: { 200: slotSchema, ...errors },
      handler: (ctx, req) => updateSlot(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'DELETE',
      url: `${SVC}/slots`,
      operationId: 'deleteSlot',
      auth: 'key',
      summary: 'Delete scheduled slot (one occurrence or it and the upcoming ones)',
      status: 204,
      params: S.params('cid', 'service_id'),
      querystring: query.deleteSlot,
      response: { 204: { type: 'null' }, ...errors },
      handler: (ctx, req) => deleteSlot(ctx, p(req).cid, p(req).service_id, q(req)),
    },
    {
      method: 'GET',
      url: `${C}/slots/schedule`,
      operationId: 'getSlotSchedule',
      auth: 'key',
      summary: 'Schedule slots (expanded occurrences)',
      params: S.params('cid'),
      querystring: query.schedule,
      response: { 200: S.array(slotSchema), ...errors },
      handler: (ctx, req) =>
        slotSchedule(ctx, p(req).cid, {
          serviceIDs: csv(q(req).service_ids) ?? [],
          resourceIDs: csv(q(req).resource_ids),
          from: q(req).from,
          to: q(req).to,
        }),
    },
  ]);
}
