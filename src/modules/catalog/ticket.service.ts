import type { Ctx } from '../../kernel/context';
import { companyForMerchant } from '../company/company.access';
import { updateRecordMetaData } from '../../shared/metadata';
import { Check } from '../../shared/validate';
import { Ticket } from './catalog.entity';
import { ticketJson, type TicketJson } from './catalog.json';
import { getServiceInCompany, getTicketInService } from './catalog.lookup';

export interface CreateTicketFields {
  name?: unknown;
  enabled?: unknown;
  metaData?: unknown;
}

export interface UpdateTicketFields {
  name?: unknown;
  enabled?: unknown;
  metaDataUpdate?: unknown;
}

/** Tickets of a service, oldest first. */
export async function listTickets(ctx: Ctx, companyId: string, serviceId: string): Promise<TicketJson[]> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const tickets = await ctx.em.find(Ticket, { companyId: company.id, serviceId: service.id }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  return tickets.map(ticketJson);
}

/** One ticket of a service. */
export async function getTicket(ctx: Ctx, companyId: string, serviceId: string, ticketId: string): Promise<TicketJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.read');
  return ticketJson(await getTicketInService(ctx, company.id, serviceId, ticketId, 'id'));
}

/** Creates a ticket; only services of type `ticket` have tickets. */
export async function createTicket(ctx: Ctx, companyId: string, serviceId: string, input: CreateTicketFields): Promise<TicketJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const service = await getServiceInCompany(ctx, company.id, serviceId);
  const c = new Check();
  if (service.type !== 'ticket') c.fail('serviceID', `is a ${service.type} service; only ticket services have tickets`);
  const name = c.string('name', input.name, { required: true });
  const enabled = c.bool('enabled', input.enabled);
  const metaData = c.metaData('metaData', input.metaData);
  c.done('invalid ticket');
  const ticket = ctx.em.create(Ticket, {
    companyId: company.id,
    serviceId: service.id,
    name: name!,
    enabled: enabled ?? true,
    metaData: metaData ?? {},
    metaDataVersion: 1,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  await ctx.em.flush();
  return ticketJson(ticket);
}

/** Partial update of a ticket: name, `enabled`, `metaDataUpdate`. */
export async function updateTicket(
  ctx: Ctx,
  companyId: string,
  serviceId: string,
  ticketId: string,
  input: UpdateTicketFields,
): Promise<TicketJson> {
  const company = await companyForMerchant(ctx, companyId, 'services.write');
  const ticket = await getTicketInService(ctx, company.id, serviceId, ticketId, 'id');
  const c = new Check();
  const name = c.string('name', input.name, { required: input.name !== undefined });
  const enabled = c.bool('enabled', input.enabled);
  c.done('invalid ticket update');
  updateRecordMetaData(ticket, input.metaDataUpdate);
  if (name !== undefined) ticket.name = name;
  if (enabled !== undefined) ticket.enabled = enabled;
  ticket.updatedAt = ctx.now;
  await ctx.em.flush();
  return ticketJson(ticket);
}
