import { S } from '../../kernel/rest';
import { SERVICE_TYPES } from '../../shared/service-type';
import { BOOKING_POLICIES } from './catalog.checks';

/**
 * JSON schemas of the catalog routes. Request schemas check types only; the services check
 * formats and rules (so REST and GraphQL agree). Response schemas document the JSON.
 */

type JsonSchema = Record<string, unknown>;
const nullable = (type: string): JsonSchema => ({ type: [type, 'null'] });

const taxSchema = S.nullable(S.named('ServiceTax', S.out({ inclusive: S.bool, rate: S.num })));

export const settingsSchema = S.named(
  'ServiceSettings',
  S.out({
    availabilityPeriod: S.nstr,
    bookingPolicy: S.oneOf(BOOKING_POLICIES),
    bufferBefore: S.nstr,
    bufferAfter: S.nstr,
    checkInTime: S.nstr,
    checkOutTime: S.nstr,
    currency: S.nstr,
    duration: S.nstr,
    timeInterval: S.nstr,
    tax: taxSchema,
  }),
);

const settingsBody = S.named(
  'ServiceSettingsInput',
  S.object({
    availabilityPeriod: S.nstr,
    bookingPolicy: S.choice(BOOKING_POLICIES, true),
    bufferBefore: S.nstr,
    bufferAfter: S.nstr,
    checkInTime: S.nstr,
    checkOutTime: S.nstr,
    currency: S.nstr,
    duration: S.nstr,
    timeInterval: S.nstr,
    tax: S.nullable(
      S.named('ServiceTaxInput', {
        type: 'object',
        properties: { inclusive: nullable('boolean'), rate: nullable('number') },
        additionalProperties: true,
      }),
    ),
  }),
);

const serviceType = S.oneOf(SERVICE_TYPES);

export const serviceSchema = S.named(
  'Service',
  S.out({
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
  }),
);

export const resourceSchema = S.named(
  'Resource',
  S.out({
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
  }),
);

export const ticketSchema = S.named(
  'Ticket',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    name: S.str,
    enabled: S.bool,
    metaData: S.obj,
    metaDataVersion: S.int,
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const linkSchema = S.named(
  'ServiceResourceLink',
  S.out({
    id: S.uuid,
    serviceID: S.uuid,
    resourceID: S.uuid,
    relatedResourceIDs: S.named('RelatedResourceIDs', S.out({ all: S.uuids, any: S.uuids })),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const clientServiceSchema = S.named(
  'ClientService',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    name: S.str,
    type: serviceType,
    color: S.nstr,
    settings: settingsSchema,
    timeZone: S.str,
    resources: S.array(
      S.named(
        'ClientServiceResource',
        S.out({ id: S.uuid, companyID: S.uuid, name: S.str, color: S.nstr, createdAt: S.ts, updatedAt: S.ts }),
      ),
    ),
    tickets: S.array(S.named('ClientTicket', S.out({ id: S.uuid, name: S.str }))),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

export const clientResourceSchema = S.named(
  'ClientResource',
  S.out({
    id: S.uuid,
    companyID: S.uuid,
    name: S.str,
    color: S.nstr,
    services: S.array(
      S.named(
        'ClientResourceService',
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
    ),
    createdAt: S.ts,
    updatedAt: S.ts,
  }),
);

const relatedIdsBody = {
  type: ['object', 'array', 'null'],
  description:
    'Related resources booked with the resource: `{all: [ids], any: [ids]}` (all of them, and one of them); a plain array means all.',
};

export const bodies = {
  createService: S.named(
    'CreateServiceInput',
    S.object(
      {
        name: S.str,
        type: S.choice(SERVICE_TYPES),
        color: S.nstr,
        metaData: S.nobj,
        position: S.nint,
        settings: S.nullable(settingsBody),
      },
      ['name', 'type'],
    ),
  ),
  updateService: S.named(
    'UpdateServiceInput',
    S.object({
      name: S.str,
      color: S.nstr,
      enabled: S.bool,
      metaDataUpdate: S.metaDataUpdate,
      position: S.int,
      type: { ...S.str, description: 'The type is fixed at creation: leave it out, or send the one the service has.' },
    }),
  ),
  settings: settingsBody,
  createResource: S.named(
    'CreateResourceInput',
    S.object({ name: S.str, color: S.str, metaData: S.nobj, relatedResourceIDs: { type: ['array', 'null'], items: S.str } }, [
      'name',
      'color',
    ]),
  ),
  updateResource: S.named(
    'UpdateResourceInput',
    S.object({
      name: S.str,
      color: S.str,
      enabled: S.bool,
      metaDataUpdate: S.metaDataUpdate,
      relatedResourceIDs: { type: ['array', 'null'], items: S.str },
    }),
  ),
  createLink: S.named(
    'CreateServiceResourceLinkInput',
    S.object({ resourceID: S.str, relatedResourceIDs: relatedIdsBody }, ['resourceID']),
  ),
  updateLink: S.named('UpdateServiceResourceLinkInput', S.object({ relatedResourceIDs: relatedIdsBody })),
  createTicket: S.named('CreateTicketInput', S.object({ name: S.str, enabled: S.bool, metaData: S.nobj }, ['name'])),
  updateTicket: S.named('UpdateTicketInput', S.object({ name: S.str, enabled: S.bool, metaDataUpdate: S.metaDataUpdate })),
};

/** The links of a resource, with their services (`GET .../resources/{resource_id}/links`). */
export const resourceLinksSchema = S.named('ResourceLinks', S.out({ links: S.array(linkSchema), services: S.array(serviceSchema) }));
/** The links of a service, with their resources (`GET .../services/{service_id}/links`). */
export const serviceLinksSchema = S.named('ServiceLinks', S.out({ links: S.array(linkSchema), resources: S.array(resourceSchema) }));

export const errors = { 400: S.error, 401: S.error, 403: S.error, 404: S.error };
export const writeErrors = { ...errors, 409: S.error };
