import { Arg, Args, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { DOC, PageArgs, pageOf } from '../../kernel/graphql-types';
import type { Ctx } from '../../kernel/context';
import { createCapacityRule, listCapacityRules } from './capacity.service';
import { createClosingPeriod, listClosingPeriods, searchClosingPeriods } from './closing-period.service';
import {
  CapacityRuleInput,
  CapacityRuleTypeEnum,
  CapacityRulePageType,
  CapacityRuleType,
  ClosingPeriodInput,
  ClosingPeriodPageType,
  ClosingPeriodType,
  CreateSlotInput,
  DeleteSlotInput,
  SearchClosingPeriodsInput,
  SlotPageType,
  SlotType,
  ticketSpotsMap,
  UpdateSlotInput,
  WorkingHoursInput,
  WorkingHoursRulePageType,
  WorkingHoursRuleType,
} from './scheduling.types';
import { createSlot, deleteSlot, listSlots, updateSlot } from './slot.service';
import { slotSchedule } from './slot-schedule.service';
import { createWorkingHours, deleteWorkingHours, listWorkingHours, updateWorkingHours } from './working-hours.service';

@Resolver(() => WorkingHoursRuleType)
export class WorkingHoursResolver {
  @Query(() => WorkingHoursRulePageType, {
    nullable: true,
    description: 'Working hours rules of a resource, in the order they are chosen.',
  })
  async workingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf(await listWorkingHours(ctx, companyID, resourceID), page, 'workingHours');
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
  @Query(() => ClosingPeriodPageType, { nullable: true, description: 'Closing periods of a resource, by start.' })
  async closingPeriods(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('resourceID', () => ID, { description: DOC.resourceArg }) resourceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf(await listClosingPeriods(ctx, companyID, resourceID), page, 'closingPeriods');
  }

  @Query(() => ClosingPeriodPageType, {
    nullable: true,
    description: 'Closing periods overlapping [from, to) of the given resources (each carries its resourceID).',
  })
  async searchClosingPeriods(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('input', () => SearchClosingPeriodsInput, { description: DOC.inputArg }) input: SearchClosingPeriodsInput,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    const { closingPeriods } = await searchClosingPeriods(ctx, companyID, input);
    return pageOf(Object.values(closingPeriods).flat(), page, 'closingPeriods');
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
  @Query(() => CapacityRulePageType, { nullable: true, description: 'Capacity rules of a service, in the order they are chosen.' })
  async capacityRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('type', () => CapacityRuleTypeEnum, { nullable: true, description: 'Only rules of this type.' }) type?: string | null,
  ) {
    return pageOf((await listCapacityRules(ctx, companyID, serviceID, type ?? undefined)).capacities, page, 'capacityRules');
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
  @Query(() => SlotPageType, { nullable: true, description: 'Slots of a group or ticket service, by start.' })
  async slots(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceID', () => ID, { description: DOC.serviceArg }) serviceID: string,
    @Args(() => PageArgs) page: PageArgs,
  ) {
    return pageOf(await listSlots(ctx, companyID, serviceID), page, 'slots');
  }

  @Query(() => SlotPageType, {
    nullable: true,
    description: "Occurrences of the services' slots overlapping [from, to) (at most 93 days), one per resource they run on.",
  })
  async slotSchedule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID, { description: DOC.companyArg }) companyID: string,
    @Arg('serviceIDs', () => [ID], { description: 'The services whose slots to expand.' }) serviceIDs: string[],
    @Arg('from', () => Date, { description: 'Start of the window.' }) from: Date,
    @Arg('to', () => Date, { description: 'End of the window (exclusive).' }) to: Date,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('resourceIDs', () => [ID], { nullable: true, description: 'default: every linked resource' }) resourceIDs?: string[] | null,
  ) {
    return pageOf(await slotSchedule(ctx, companyID, { serviceIDs, resourceIDs: resourceIDs ?? undefined, from, to }), page, 'slots');
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
