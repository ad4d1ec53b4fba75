import { S } from '../../kernel/rest';

/**
 * JSON schemas of the catalog routes. Request schemas check types only; the services check
 * formats and rules (so REST and GraphQL agree). Response schemas document the JSON.
 */

type JsonSchema = Record<string, unknown>;
const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

const taxSchema: JsonSchema = {
  type: ['object', 'null'],
  properties: { inclusive: S.bool, rate: S.num },
  required: ['inclusive', 'rate'],
  additionalProperties: false,
};

export const settingsSchema = S.out({
  availabilityPeriod: S.nstr,
  bookingPolicy: { type: 'string', enum: ['instant', 'manual'] },
  bufferBefore: S.nstr,
  bufferAfter: S.nstr,
  checkInTime: S.nstr,
  checkOutTime: S.nstr,
  currency: S.nstr,
  duration: S.nstr,
  timeInterval: S.nstr,
  tax: taxSchema,
});

const settingsBody = S.object({
  availabilityPeriod: S.nstr,
  bookingPolicy: S.nstr,
  bufferBefore: S.nstr,
  bufferAfter: S.nstr,
  checkInTime: S.nstr,
  checkOutTime: S.nstr,
  currency: S.nstr,
  duration: S.nstr,
  timeInterval: S.nstr,
  tax: { type: ['object', 'null'], properties: { inclusive: nullable('boolean'), rate: nullable('number') }, additionalProperties: true },
});

const serviceType = { type: 'string', enum: ['fixed', 'flexible', 'group', 'ticket', 'days', 'sharable'] };

export const serviceSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  name: S.str,
  type: serviceType,
  color: S.nstr,
  metaData: S.obj,
  metaDataVersion: S.int,
  position: S.int,
  settings: settingsSchema,
  disabledAt: S.nts,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const resourceSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  name: S.str,
  color: S.nstr,
  metaData: S.obj,
  metaDataVersion: S.int,
  relatedResourceIDs: S.uuids,
  disabledAt: S.nts,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const ticketSchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  name: S.str,
  enabled: S.bool,
  metaData: S.obj,
  metaDataVersion: S.int,
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const linkSchema = S.out({
  id: S.uuid,
  serviceID: S.uuid,
  resourceID: S.uuid,
  relatedResourceIDs: S.out({ all: S.uuids, any: S.uuids }),
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const clientServiceSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  name: S.str,
  type: serviceType,
  color: S.nstr,
  settings: settingsSchema,
  timeZone: S.str,
  resources: S.array(S.out({ id: S.uuid, companyID: S.uuid, name: S.str, color: S.nstr, createdAt: S.ts, updatedAt: S.ts })),
  tickets: S.array(S.out({ id: S.uuid, name: S.str })),
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const clientResourceSchema = S.out({
  id: S.uuid,
  companyID: S.uuid,
  name: S.str,
  color: S.nstr,
  services: S.array(
    S.out({
      id: S.uuid,
      companyID: S.uuid,
      name: S.str,
      color: S.nstr,
      type: serviceType,
      settings: settingsSchema,
      createdAt: S.ts,
      updatedAt: S.ts,
    }),
  ),
  createdAt: S.ts,
  updatedAt: S.ts,
});

export const bodies = {
  createService: S.object(
    {
      name: S.str,
      type: S.str,
      color: S.nstr,
      metaData: S.nobj,
      position: S.nint,
      settings: { ...settingsBody, type: ['object', 'null'] },
    },
    ['name', 'type'],
  ),
  updateService: S.object({ name: S.str, color: S.nstr, enabled: S.bool, metaDataUpdate: S.metaDataUpdate, position: S.int, type: S.str }),
  settings: settingsBody,
  createResource: S.object({ name: S.str, color: S.str, metaData: S.nobj, relatedResourceIDs: { type: ['array', 'null'], items: S.str } }, [
    'name',
    'color',
  ]),
  updateResource: S.object({
    name: S.str,
    color: S.str,
    enabled: S.bool,
    metaDataUpdate: S.metaDataUpdate,
    relatedResourceIDs: { type: ['array', 'null'], items: S.str },
  }),
  createLink: S.object(
    {
      resourceID: S.str,
      relatedResourceIDs: { type: ['object', 'array', 'null'], description: '{all: [ids], any: [ids]}; a plain array means all' },
    },
    ['resourceID'],
  ),
  updateLink: S.object({
    relatedResourceIDs: { type: ['object', 'array', 'null'], description: '{all: [ids], any: [ids]}; a plain array means all' },
  }),
  createTicket: S.object({ name: S.str, enabled: S.bool, metaData: S.nobj }, ['name']),
  updateTicket: S.object({ name: S.str, enabled: S.bool, metaDataUpdate: S.metaDataUpdate }),
};

export const errors = { 400: S.error, 401: S.error, 403: S.error, 404: S.error };
export const writeErrors = { ...errors, 409: S.error };
