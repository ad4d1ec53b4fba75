import { Arg, Ctx as GqlCtx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../kernel/context';
import { createCapacityRule, listCapacityRules } from './capacity.service';
import { createClosingPeriod, listClosingPeriods, searchClosingPeriods } from './closing-period.service';
import {
  CapacityRuleInput,
  CapacityRuleType,
  ClosingPeriodInput,
  ClosingPeriodType,
  CreateSlotInput,
  DeleteSlotInput,
  SearchClosingPeriodsInput,
  SlotType,
  UpdateSlotInput,
  WorkingHoursInput,
  WorkingHoursRuleType,
} from './scheduling.types';
import { createSlot, deleteSlot, listSlots, updateSlot } from './slot.service';
import { slotSchedule } from './slot-schedule.service';
import { createWorkingHours, deleteWorkingHours, listWorkingHours, updateWorkingHours } from './working-hours.service';

@Resolver(() => WorkingHoursRuleType)
export class WorkingHoursResolver {
  @Query(() => [WorkingHoursRuleType], { nullable: true, description: 'Working hours rules of a resource, in the order they are chosen.' })
  workingHours(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('resourceID', () => ID) resourceID: string) {
    return listWorkingHours(ctx, companyID, resourceID);
  }

  @Mutation(() => WorkingHoursRuleType)
  createWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('resourceID', () => ID) resourceID: string,
    @Arg('input', () => WorkingHoursInput) input: WorkingHoursInput,
  ) {
    return createWorkingHours(ctx, companyID, resourceID, input);
  }

  @Mutation(() => WorkingHoursRuleType, { description: 'Replaces the rule with the input.' })
  updateWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('resourceID', () => ID) resourceID: string,
    @Arg('id', () => ID) id: string,
    @Arg('input', () => WorkingHoursInput) input: WorkingHoursInput,
  ) {
    return updateWorkingHours(ctx, companyID, resourceID, id, input);
  }

  @Mutation(() => Boolean, { description: 'Deletes the listed rules of the resource, or all of them when ids is left out.' })
  async deleteWorkingHours(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('resourceID', () => ID) resourceID: string,
    @Arg('ids', () => [ID], { nullable: true }) ids?: string[] | null,
  ) {
    await deleteWorkingHours(ctx, companyID, resourceID, ids === null || ids === undefined ? {} : { ids });
    return true;
  }
}

@Resolver(() => ClosingPeriodType)
export class ClosingPeriodResolver {
  @Query(() => [ClosingPeriodType], { nullable: true, description: 'Closing periods of a resource, by start.' })
  closingPeriods(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('resourceID', () => ID) resourceID: string) {
    return listClosingPeriods(ctx, companyID, resourceID);
  }

  @Query(() => [ClosingPeriodType], {
    nullable: true,
    description: 'Closing periods overlapping [from, to) of the given resources (each carries its resourceID).',
  })
  async searchClosingPeriods(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('input', () => SearchClosingPeriodsInput) input: SearchClosingPeriodsInput,
  ) {
    const { closingPeriods } = await searchClosingPeriods(ctx, companyID, input);
    return Object.values(closingPeriods).flat();
  }

  @Mutation(() => ClosingPeriodType)
  createClosingPeriod(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('resourceID', () => ID) resourceID: string,
    @Arg('input', () => ClosingPeriodInput) input: ClosingPeriodInput,
  ) {
    return createClosingPeriod(ctx, companyID, resourceID, input);
  }
}

@Resolver(() => CapacityRuleType)
export class CapacityRuleResolver {
  @Query(() => [CapacityRuleType], { nullable: true, description: 'Capacity rules of a service, in the order they are chosen.' })
  async capacityRules(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('type', () => String, { nullable: true, description: 'group or ticket' }) type?: string | null,
  ) {
    return (await listCapacityRules(ctx, companyID, serviceID, type ?? undefined)).capacities;
  }

  @Mutation(() => CapacityRuleType)
  createCapacityRule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CapacityRuleInput) input: CapacityRuleInput,
  ) {
    return createCapacityRule(ctx, companyID, serviceID, input);
  }
}

@Resolver(() => SlotType)
export class SlotResolver {
  @Query(() => [SlotType], { nullable: true, description: 'Slots of a group or ticket service, by start.' })
  slots(@GqlCtx() ctx: Ctx, @Arg('companyID', () => ID) companyID: string, @Arg('serviceID', () => ID) serviceID: string) {
    return listSlots(ctx, companyID, serviceID);
  }

  @Query(() => [SlotType], {
    nullable: true,
    description: "Occurrences of the services' slots overlapping [from, to) (at most 93 days), one per resource they run on.",
  })
  slotSchedule(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceIDs', () => [ID]) serviceIDs: string[],
    @Arg('from', () => Date) from: Date,
    @Arg('to', () => Date) to: Date,
    @Arg('resourceIDs', () => [ID], { nullable: true, description: 'default: every linked resource' }) resourceIDs?: string[] | null,
  ) {
    return slotSchedule(ctx, companyID, { serviceIDs, resourceIDs: resourceIDs ?? undefined, from, to });
  }

  @Mutation(() => SlotType)
  createSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => CreateSlotInput) input: CreateSlotInput,
  ) {
    return createSlot(ctx, companyID, serviceID, input);
  }

  @Mutation(() => SlotType, {
    description: 'Changes one occurrence (single) or it and the later ones (upcoming); returns the slot now holding it.',
  })
  updateSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => UpdateSlotInput) input: UpdateSlotInput,
  ) {
    return updateSlot(ctx, companyID, serviceID, input);
  }

  @Mutation(() => Boolean)
  async deleteSlot(
    @GqlCtx() ctx: Ctx,
    @Arg('companyID', () => ID) companyID: string,
    @Arg('serviceID', () => ID) serviceID: string,
    @Arg('input', () => DeleteSlotInput) input: DeleteSlotInput,
  ) {
    await deleteSlot(ctx, companyID, serviceID, input);
    return true;
  }
}
