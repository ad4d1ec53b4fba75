import type { AppModule } from '../kernel/module';
import { companyModule } from '../modules/company';
import { clientModule } from '../modules/client';
import { availabilityModule } from '../modules/availability';
import { catalogModule } from '../modules/catalog';
import { schedulingModule } from '../modules/scheduling';
import { pricingModule } from '../modules/pricing';
import { paymentModule } from '../modules/payment';
import { bookingModule } from '../modules/booking';

/** Every bounded context, in registration order. */
export const modules: AppModule[] = [companyModule, clientModule, availabilityModule, catalogModule, schedulingModule, pricingModule, paymentModule, bookingModule];

export const allEntities = (): Function[] => modules.flatMap((m) => m.entities);
export const allResolvers = (): Function[] => modules.flatMap((m) => m.resolvers);
