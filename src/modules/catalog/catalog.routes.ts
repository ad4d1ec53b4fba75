import type { FastifyInstance } from 'fastify';
import { defineRoutes, S } from '../../app/rest';
import {
  bodies, clientResourceSchema, clientServiceSchema, errors, linkSchema, resourceSchema, serviceSchema, ticketSchema, writeErrors,
} from './catalog.schemas';
import { getClientResource, getClientService, listClientResources, listClientServices } from './client-catalog.service';
import { createLink, listResourceLinks, listServiceLinks, updateLink } from './link.service';
import { createResource, getResource, listResources, updateResource } from './resource.service';
import { createService, getService, listServices, updateService, updateServiceSettings } from './service.service';
import { createTicket, getTicket, listTickets, updateTicket } from './ticket.service';

type P = { cid: string; service_id: string; resource_id: string; link_id: string; ticket_id: string };

const C = '/v1/companies/:cid';
const SVC = `${C}/services/:service_id`;
const RES = `${C}/resources/:resource_id`;
const CLIENT = '/v1/client/companies/:cid';

export function catalogRoutes(app: FastifyInstance): void {
  const p = (req: { params: unknown }) => req.params as P;
  const body = (req: { body: unknown }) => (req.body ?? {}) as Record<string, unknown>;
  defineRoutes(app, [
    // Services
    {
      method: 'GET', url: `${C}/services`, auth: 'key', summary: 'List services', tags: ['services'], params: S.params('cid'),
      response: { 200: S.array(serviceSchema), ...errors }, handler: (ctx, req) => listServices(ctx, p(req).cid),
    },
    {
      method: 'POST', url: `${C}/services`, auth: 'key', summary: 'Create service', tags: ['services'], status: 201, params: S.params('cid'),
      body: bodies.createService, response: { 201: serviceSchema, ...errors }, handler: (ctx, req) => createService(ctx, p(req).cid, body(req)),
    },
    {
      method: 'GET', url: SVC, auth: 'key', summary: 'Get one service', tags: ['services'], params: S.params('cid', 'service_id'),
      response: { 200: serviceSchema, ...errors }, handler: (ctx, req) => getService(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'PATCH', url: SVC, auth: 'key', summary: 'Update service', tags: ['services'], params: S.params('cid', 'service_id'),
      body: bodies.updateService, response: { 200: serviceSchema, ...writeErrors }, handler: (ctx, req) => updateService(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'PATCH', url: `${SVC}/settings`, auth: 'key', summary: 'Update service settings', tags: ['services'], params: S.params('cid', 'service_id'),
      body: bodies.settings, response: { 200: serviceSchema, ...errors }, handler: (ctx, req) => updateServiceSettings(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    // Resources
    {
      method: 'GET', url: `${C}/resources`, auth: 'key', summary: 'List resources', tags: ['resources'], params: S.params('cid'),
      response: { 200: S.array(resourceSchema), ...errors }, handler: (ctx, req) => listResources(ctx, p(req).cid),
    },
    {
      method: 'POST', url: `${C}/resources`, auth: 'key', summary: 'Create a resource', tags: ['resources'], status: 201, params: S.params('cid'),
      body: bodies.createResource, response: { 201: resourceSchema, ...errors }, handler: (ctx, req) => createResource(ctx, p(req).cid, body(req)),
    },
    {
      method: 'GET', url: RES, auth: 'key', summary: 'Get one resource', tags: ['resources'], params: S.params('cid', 'resource_id'),
      response: { 200: resourceSchema, ...errors }, handler: (ctx, req) => getResource(ctx, p(req).cid, p(req).resource_id),
    },
    {
      method: 'PATCH', url: RES, auth: 'key', summary: 'Update resource (leaving out enabled enables it)', tags: ['resources'], params: S.params('cid', 'resource_id'),
      body: bodies.updateResource, response: { 200: resourceSchema, ...writeErrors }, handler: (ctx, req) => updateResource(ctx, p(req).cid, p(req).resource_id, body(req)),
    },
    // Links
    {
      method: 'GET', url: `${RES}/links`, auth: 'key', summary: 'List resource-service links', tags: ['links'], params: S.params('cid', 'resource_id'),
      response: { 200: S.out({ links: S.array(linkSchema), services: S.array(serviceSchema) }), ...errors },
      handler: (ctx, req) => listResourceLinks(ctx, p(req).cid, p(req).resource_id),
    },
    {
      method: 'GET', url: `${SVC}/links`, auth: 'key', summary: 'List service-resource links', tags: ['links'], params: S.params('cid', 'service_id'),
      response: { 200: S.out({ links: S.array(linkSchema), resources: S.array(resourceSchema) }), ...errors },
      handler: (ctx, req) => listServiceLinks(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'POST', url: `${SVC}/links`, auth: 'key', summary: 'Link service with resource', tags: ['links'], status: 201, params: S.params('cid', 'service_id'),
      body: bodies.createLink, response: { 201: linkSchema, ...writeErrors }, handler: (ctx, req) => createLink(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'PATCH', url: `${SVC}/links/:link_id`, auth: 'key', summary: 'Update service-resource link', tags: ['links'], params: S.params('cid', 'service_id', 'link_id'),
      body: bodies.updateLink, response: { 200: linkSchema, ...errors }, handler: (ctx, req) => updateLink(ctx, p(req).cid, p(req).service_id, p(req).link_id, body(req)),
    },
    // Tickets
    {
      method: 'GET', url: `${SVC}/tickets`, auth: 'key', summary: 'List tickets for a service', tags: ['tickets'], params: S.params('cid', 'service_id'),
      response: { 200: S.array(ticketSchema), ...errors }, handler: (ctx, req) => listTickets(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'POST', url: `${SVC}/tickets`, auth: 'key', summary: 'Create ticket for service', tags: ['tickets'], status: 201, params: S.params('cid', 'service_id'),
      body: bodies.createTicket, response: { 201: ticketSchema, ...errors }, handler: (ctx, req) => createTicket(ctx, p(req).cid, p(req).service_id, body(req)),
    },
    {
      method: 'GET', url: `${SVC}/tickets/:ticket_id`, auth: 'key', summary: 'Get a ticket for a service', tags: ['tickets'], params: S.params('cid', 'service_id', 'ticket_id'),
      response: { 200: ticketSchema, ...errors }, handler: (ctx, req) => getTicket(ctx, p(req).cid, p(req).service_id, p(req).ticket_id),
    },
    {
      method: 'PATCH', url: `${SVC}/tickets/:ticket_id`, auth: 'key', summary: 'Update a ticket (name, enabled, metaDataUpdate)', tags: ['tickets'], params: S.params('cid', 'service_id', 'ticket_id'),
      body: bodies.updateTicket, response: { 200: ticketSchema, ...writeErrors }, handler: (ctx, req) => updateTicket(ctx, p(req).cid, p(req).service_id, p(req).ticket_id, body(req)),
    },
    // Client interface
    {
      method: 'GET', url: `${CLIENT}/services`, auth: 'key|bearer', summary: 'Get list of services (client)', tags: ['client'], params: S.params('cid'),
      response: { 200: S.array(clientServiceSchema), ...errors }, handler: (ctx, req) => listClientServices(ctx, p(req).cid),
    },
    {
      method: 'GET', url: `${CLIENT}/services/:service_id`, auth: 'key|bearer', summary: 'Get one service (client)', tags: ['client'], params: S.params('cid', 'service_id'),
      response: { 200: clientServiceSchema, ...errors }, handler: (ctx, req) => getClientService(ctx, p(req).cid, p(req).service_id),
    },
    {
      method: 'GET', url: `${CLIENT}/resources`, auth: 'key|bearer', summary: 'Get list of resources (client)', tags: ['client'], params: S.params('cid'),
      response: { 200: S.array(clientResourceSchema), ...errors }, handler: (ctx, req) => listClientResources(ctx, p(req).cid),
    },
    {
      method: 'GET', url: `${CLIENT}/resources/:resource_id`, auth: 'key|bearer', summary: 'Get one resource (client)', tags: ['client'], params: S.params('cid', 'resource_id'),
      response: { 200: clientResourceSchema, ...errors }, handler: (ctx, req) => getClientResource(ctx, p(req).cid, p(req).resource_id),
    },
  ]);
}
