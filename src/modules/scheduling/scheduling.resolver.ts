import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC } from '../../kernel/graphql-types';
import { ConnectionArgs, connectionOf, listSpec, ORDERS, type SortKey } from '../../kernel/connection';
import type { Ctx } from '../../kernel/context';
import { createCapacityRule, listCapacityRules } from './capacity.service';
import { createClosingPeriod, listClosingPeriods, searchClosingPeriods, type ClosingPeriodJson } from './closing-period.service';
import type { SlotJson } from './slot.input';
import {
  CapacityRuleInput,
  CapacityRuleTypeEnum,
  CapacityRuleConnectionType,
  CapacityRuleType,
  ClosingPeriodInput,
  ClosingPeriodConnectionType,
  ClosingPeriodType,
  CreateSlotInput,
  DeleteSlotInput,
  SearchClosingPeriodsInput,
  SlotConnectionType,
  SlotType,
  ticketSpotsMap,
  UpdateSlotInput,
  WorkingHoursInput,
  WorkingHoursRuleConnectionType,
  WorkingHoursRuleType,
} from './scheduling.types';
import { createSlot, deleteSlot, listSlots, updateSlot } from './slot.service';
import { slotSchedule } from './slot-schedule.service';
import { createWorkingHours, deleteWorkingHours, listWorkingHours, updateWorkingHours } from './working-hours.service';

/** Occurrences of the schedule: by start, then resource, service and slot (slotSchedule's sort). */
const SCHEDULE_ORDER: SortKey<SlotJson>[] = [
  ORDERS.start[0],
  { column: 'resource_id', of: (s) => s.resourceID },
  { column: 'service_id', of: (s) => s.serviceID },
  ORDERS.start[1],
];

@Resolver(() => WorkingHoursRuleType)
export class WorkingHoursResolver {
  @Query(() => WorkingHoursRuleConnectionType, {
    nullable: true,
    description: 'Working hours rules of a resource, in the order they are chosen.',
  })
  async workingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(
      await listWorkingHours(ctx, companyID, resourceID),
      page,
      listSpec(ORDERS.rules, 'workingHours', resourceID),
      'workingHours',
    );
  }

  @Mutation(() => WorkingHoursRuleType, { description: 'Adds a working hours rule to a resource (`rules.write`).' })
  createWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Arg('input', () => WorkingHoursInput, { description: DOC.inputArg }) input: WorkingHoursInput,
  ) {
    return createWorkingHours(ctx, companyID, resourceID, input);
  }

  @Mutation(() => WorkingHoursRuleType, { description: 'Replaces the rule with the input.' })
  updateWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Arg('id', () => ID, { description: DOC.idArg }) id: string,
    @Arg('input', () => WorkingHoursInput, { description: DOC.inputArg }) input: WorkingHoursInput,
  ) {
    return updateWorkingHours(ctx, companyID, resourceID, id, input);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes the listed rules of the resource, or all of them when ids is left out; true when done.',
  })
  async deleteWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Arg('ids', () => [ID], { nullable: true, description: 'Rules to delete; left out: every rule of the resource.' })
    ids?: string[] | null,
  ) {
    await deleteWorkingHours(ctx, companyID, resourceID, ids === null || ids === undefined ? {} : { ids });
    return true;
  }
}

@Resolver(() => ClosingPeriodType)
export class ClosingPeriodResolver {
  @Query(() => ClosingPeriodConnectionType, { nullable: true, description: 'Closing periods of a resource, by start.' })
  async closingPeriods(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(
      await listClosingPeriods(ctx, companyID, resourceID),
      page,
      listSpec(ORDERS.start, 'closingPeriods', resourceID),
      'closingPeriods',
    );
  }

  @Query(() => ClosingPeriodConnectionType, {
    nullable: true,
    description: 'Closing periods overlapping [from, to) of the given resources (each carries its resourceID).',
  })
  async searchClosingPeriods(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => SearchClosingPeriodsInput, { description: DOC.inputArg }) input: SearchClosingPeriodsInput,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    const { closingPeriods } = await searchClosingPeriods(ctx, companyID, input);
    // grouped by resource in the search's order of resources, then by start
    const place = new Map(Object.keys(closingPeriods).map((id, i) => [id, i]));
    const keys: SortKey<ClosingPeriodJson>[] = [
      { column: 'resource', type: 'int', of: (p) => place.get(p.resourceID) ?? null },
      ...ORDERS.start,
    ];
    return connectionOf(
      Object.values(closingPeriods).flat(),
      page,
      listSpec(keys, 'searchClosingPeriods', companyID, input),
      'closingPeriods',
    );
  }

  @Mutation(() => ClosingPeriodType, { description: 'Closes a resource for a period (`rules.write`).' })
  createClosingPeriod(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Arg('input', () => ClosingPeriodInput, { description: DOC.inputArg }) input: ClosingPeriodInput,
  ) {
    return createClosingPeriod(ctx, companyID, resourceID, input);
  }
}

@Resolver(() => CapacityRuleType)
export class CapacityRuleResolver {
  @Query(() => CapacityRuleConnectionType, { nullable: true, description: 'Capacity rules of a service, in the order they are chosen.' })
  async capacityRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('type', () => CapacityRuleTypeEnum, { nullable: true, description: 'Only rules of this type.' }) type?: string | null,
  ) {
    const { capacities } = await listCapacityRules(ctx, companyID, serviceID, type ?? undefined);
    return connectionOf(capacities, page, listSpec(ORDERS.rules, 'capacityRules', serviceID, { type }), 'capacityRules');
  }

  @Mutation(() => CapacityRuleType, { description: 'Adds a capacity rule to a group or ticket service (`rules.write`).' })
  createCapacityRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CapacityRuleInput, { description: DOC.inputArg }) input: CapacityRuleInput,
  ) {
    return createCapacityRule(ctx, companyID, serviceID, { ...input, spotsPerTicket: ticketSpotsMap(input.spotsPerTicket) });
  }
}

@Resolver(() => SlotType)
export class SlotResolver {
  @Query(() => SlotConnectionType, { nullable: true, description: 'Slots of a group or ticket service, by start.' })
  async slots(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
  ) {
    return connectionOf(await listSlots(ctx, companyID, serviceID), page, listSpec(ORDERS.start, 'slots', serviceID), 'slots');
  }

  @Query(() => SlotConnectionType, {
    nullable: true,
    description: "Occurrences of the services' slots overlapping [from, to) (at most 93 days), one per resource they run on.",
  })
  async slotSchedule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceIDs', () => [ID], { description: 'The services whose slots to expand.' }) serviceIDs: string[],
    @Arg('from', () => Date, { description: 'Start of the window.' }) from: Date,
    @Arg('to', () => Date, { description: 'End of the window (exclusive).' }) to: Date,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Arg('resourceIDs', () => [ID], { nullable: true, description: 'default: every linked resource' }) resourceIDs?: string[] | null,
  ) {
    const filter = { serviceIDs, resourceIDs: resourceIDs ?? undefined, from, to };
    return connectionOf(
      await slotSchedule(ctx, companyID, filter),
      page,
      listSpec(SCHEDULE_ORDER, 'slotSchedule', companyID, filter),
      'slots',
    );
  }

  @Mutation(() => SlotType, { description: 'Adds a slot (or a series) to a group or ticket service (`slots.write`).' })
  createSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => CreateSlotInput, { description: DOC.inputArg }) input: CreateSlotInput,
  ) {
    return createSlot(ctx, companyID, serviceID, input);
  }

  @Mutation(() => SlotType, {
    description: 'Changes one occurrence (single) or it and the later ones (upcoming); returns the slot now holding it.',
  })
  updateSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => UpdateSlotInput, { description: DOC.inputArg }) input: UpdateSlotInput,
  ) {
    return updateSlot(ctx, companyID, serviceID, input);
  }

  @Mutation(() => Boolean, {
    description: 'Deletes one occurrence of a slot (single) or it and the later ones (upcoming); true when done.',
  })
  async deleteSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Arg('input', () => DeleteSlotInput, { description: DOC.inputArg }) input: DeleteSlotInput,
  ) {
    await deleteSlot(ctx, companyID, serviceID, input);
    return true;
  }
}
