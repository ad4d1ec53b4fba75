import type { AppModule } from '../../kernel/module';
import { CapacityRule, ClosingPeriod, Slot, WorkingHoursRule } from './scheduling.entity';
import { CapacityRuleResolver, ClosingPeriodResolver, SlotResolver, WorkingHoursResolver } from './scheduling.resolver';
import { schedulingRoutes } from './scheduling.routes';

export const schedulingModule: AppModule = {
  name: 'scheduling',
  description: 'When services run: working hours, closing periods, capacity rules and slots.',
  entities: [WorkingHoursRule, ClosingPeriod, CapacityRule, Slot],
  resolvers: [WorkingHoursResolver, ClosingPeriodResolver, CapacityRuleResolver, SlotResolver],
  routes: schedulingRoutes,
};
