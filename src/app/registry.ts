import type { AppModule } from '../kernel/module';
import type { AppDeps, Ctx } from '../kernel/context';
import { runAudited, systemScope } from '../kernel/audit';
import type { DocumentEntityType, DocumentPrinter, DocumentSource, DocumentSources } from '../kernel/documents';
import { orderCodeHandlers, type CodeHandlers } from '../kernel/codes';
import type { PayableItems, Payables } from '../kernel/payable';
import type { DirectField } from '../kernel/graphql-direct';
import { companyModule } from '../modules/company';
import { clientModule } from '../modules/client';
import { availabilityModule } from '../modules/availability';
import { catalogModule } from '../modules/catalog';
import { schedulingModule } from '../modules/scheduling';
import { pricingModule } from '../modules/pricing';
import { paymentModule } from '../modules/payment';
import { bookingModule } from '../modules/booking';
import { documentModule } from '../modules/document';
import { promoCodeModule } from '../modules/promocode';
import { giftCardModule } from '../modules/giftcard';
import { subscriptionModule } from '../modules/subscription';
import { webhookModule } from '../modules/webhook';
import { auditModule } from '../modules/audit';
import { calendarModule } from '../modules/calendar';
import { notificationModule } from '../modules/notification';

/** Every bounded context, in registration order. */
export const modules: AppModule[] = [
  companyModule,
  clientModule,
  availabilityModule,
  catalogModule,
  schedulingModule,
  pricingModule,
  paymentModule,
  bookingModule,
  documentModule,
  promoCodeModule,
  giftCardModule,
  subscriptionModule,
  webhookModule,
  auditModule,
  calendarModule,
  notificationModule,
];

export const allEntities = (): Function[] => modules.flatMap((m) => m.entities);
export const allResolvers = (): Function[] => modules.flatMap((m) => m.resolvers);

/** Every module's payable item handlers by item type; an item type claimed twice is a wiring error. */
export function payablesOf(list: readonly AppModule[] = modules): Payables<Ctx> {
  const out = new Map<string, PayableItems<Ctx>>();
  for (const m of list) {
    for (const [itemType, handlers] of Object.entries(m.payables ?? {})) {
      if (out.has(itemType)) throw new Error(`item type ${itemType} is registered by two modules`);
      out.set(itemType, handlers);
    }
  }
  return out;
}

/** Every module's directly answered GraphQL root fields by name; a field claimed twice is a wiring error. */
export function directFieldsOf(list: readonly AppModule[] = modules): Map<string, DirectField> {
  const out = new Map<string, DirectField>();
  for (const m of list) {
    for (const [field, answer] of Object.entries(m.graphqlDirect ?? {})) {
      if (out.has(field)) throw new Error(`GraphQL field ${field} is answered directly by two modules`);
      out.set(field, answer);
    }
  }
  return out;
}

/** Every module's root query fields executed by the JSON writer; a field claimed twice is a wiring error. */
export function writtenFieldsOf(list: readonly AppModule[] = modules): Set<string> {
  const out = new Set<string>();
  for (const m of list) {
    for (const field of m.graphqlWritten ?? []) {
      if (out.has(field)) throw new Error(`GraphQL field ${field} is written by two modules`);
      out.add(field);
    }
  }
  return out;
}

/** Every module's document sources by entity type; an entity type claimed twice is a wiring error. */
export function documentsOf(list: readonly AppModule[] = modules): DocumentSources<Ctx> {
  const out = new Map<DocumentEntityType, DocumentSource<Ctx>>();
  for (const m of list) {
    for (const [entityType, source] of Object.entries(m.documents ?? {}) as [DocumentEntityType, DocumentSource<Ctx> | undefined][]) {
      if (!source) continue;
      if (out.has(entityType)) throw new Error(`entity type ${entityType} is registered by two modules`);
      out.set(entityType, source);
    }
  }
  return out;
}

/** The printer of the module that prints documents, for `deps`; undefined when none does, and two are a wiring error. */
export function printerOf(deps: AppDeps, list: readonly AppModule[] = modules): DocumentPrinter<Ctx> | undefined {
  const printers = list.filter((m) => m.printer);
  if (printers.length > 1) throw new Error(`documents are printed by two modules: ${printers.map((m) => m.name).join(', ')}`);
  return printers[0]?.printer!(deps);
}

/** Every module's code handlers in the contract's lookup order (promo codes, gift cards, subscriptions, then others). */
export function codeHandlersOf(list: readonly AppModule[] = modules): CodeHandlers<Ctx> {
  return orderCodeHandlers(list.flatMap((m) => m.codes ?? []));
}

/**
 * Starts every module's background work (sweepers); returns their stop functions. Each runs
 * in an audit scope of its own, so what it writes is recorded as the system, named after the module.
 */
export function startModules(deps: AppDeps, list: readonly AppModule[] = modules): (() => Promise<void>)[] {
  return list
    .map((m) => runAudited(systemScope(m.name, deps.clock), () => m.start?.(deps)))
    .filter((s): s is () => Promise<void> => typeof s === 'function');
}
