import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec } from '../../kernel/connection';
import { BY_CREATION } from './catalog.lists';
import type { Ctx } from '../../kernel/context';
import { CreateTicketInput, UpdateTicketInput, TicketConnectionType, TicketType } from './catalog.types';
import { createTicket, getTicket, listTickets, updateTicket } from './ticket.service';

@Resolver(() => TicketType)
export class TicketResolver {
  @Query(() => TicketConnectionType, { nullable: true, description: 'Tickets of a service, oldest first.' })
  async tickets(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(await listTickets(ctx, companyID, serviceID), page, listSpec(BY_CREATION, 'tickets', serviceID), 'tickets');
  }

  @Query(() => TicketType, { nullable: true, description: 'One ticket of a service.' })
  ticket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
  ) {
    return getTicket(ctx, companyID, serviceID, id);
  }

  @Mutation(() => TicketType, { description: 'Only services of type ticket have tickets.' })
  createTicket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CreateTicketInput, { description: DOC.inputArg }) input: CreateTicketInput,
  ) {
    return createTicket(ctx, companyID, serviceID, input);
  }

  @Mutation(() => TicketType, { description: 'Changes the fields sent; a stale metaDataUpdate.expectedVersion is `version_conflict`.' })
  updateTicket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => UpdateTicketInput, { description: DOC.inputArg }) input: UpdateTicketInput,
  ) {
    return updateTicket(ctx, companyID, serviceID, id, input);
  }
}
