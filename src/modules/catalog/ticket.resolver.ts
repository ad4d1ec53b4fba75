import { Arg, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { CreateTicketInput, UpdateTicketInput, TicketType } from './catalog.types';
import { createTicket, getTicket, listTickets, updateTicket } from './ticket.service';

@Resolver(() => TicketType)
export class TicketResolver {
  @Query(() => [TicketType], { nullable: true, description: 'Tickets of a service, oldest first.' })
  tickets(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('serviceID', () => ID) serviceID: string) {
    return listTickets(ctx, companyID, serviceID);
  }

  @Query(() => TicketType, { nullable: true })
  ticket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('id', () => ID) id: string,
  ) {
    return getTicket(ctx, companyID, serviceID, id);
  }

  @Mutation(() => TicketType, { description: 'Only services of type ticket have tickets.' })
  createTicket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CreateTicketInput) input: CreateTicketInput,
  ) {
    return createTicket(ctx, companyID, serviceID, input);
  }

  @Mutation(() => TicketType)
  updateTicket(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => UpdateTicketInput) input: UpdateTicketInput,
  ) {
    return updateTicket(ctx, companyID, serviceID, id, input);
  }
}
