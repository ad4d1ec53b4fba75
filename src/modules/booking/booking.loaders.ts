import type { FilterQuery } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { loader, type Ctx } from '../../kernel/context';
import { Resource, Service } from '../catalog/catalog.entity';
import type { BookingStatusChange } from './booking.entity';
import { changesOf } from './booking-query.service';

/**
 * Per-request loaders behind `Booking.service` and `Booking.resource`. Keys are
 * `companyID|id`; one level of a list is one statement per company (in practice one).
 */

const options = { batchScheduleFn: (cb: () => void) => setImmediate(cb), maxBatchSize: 1000 };

function byId<T extends { id: string; companyId: string }>(ctx: Ctx, name: string, entity: new () => T): DataLoader<string, T | null> {
  return loader(
    ctx,
    name,
    () =>
      new DataLoader<string, T | null>(async (keys) => {
        const wanted = new Map<string, Set<string>>();
        for (const k of keys) {
          const [cid, id] = k.split('|');
          wanted.set(cid, (wanted.get(cid) ?? new Set()).add(id));
        }
        const found = new Map<string, T>();
        for (const [cid, ids] of wanted) {
          const where = { companyId: cid, id: { $in: [...ids] } } as FilterQuery<T>;
          const rows = (await ctx.em.find(entity, where)) as T[];
          for (const r of rows) found.set(`${r.companyId}|${r.id}`, r);
        }
        return keys.map((k) => found.get(k) ?? null);
      }, options),
  );
}

export const serviceLoader = (ctx: Ctx) => byId(ctx, 'booking.serviceById', Service);
export const resourceLoader = (ctx: Ctx) => byId(ctx, 'booking.resourceById', Resource);

/** Status changes of bookings (key `companyID|bookingID`), oldest first: one statement per company and list level. */
export const statusChangesLoader = (ctx: Ctx) =>
  loader(
    ctx,
    'booking.statusChanges',
    () =>
      new DataLoader<string, BookingStatusChange[]>(async (keys) => {
        const wanted = new Map<string, string[]>();
        for (const k of keys) {
          const [cid, id] = k.split('|');
          wanted.set(cid, [...(wanted.get(cid) ?? []), id]);
        }
        const found = new Map<string, BookingStatusChange[]>();
        for (const [cid, ids] of wanted) for (const [id, list] of await changesOf(ctx, cid, ids)) found.set(`${cid}|${id}`, list);
        return keys.map((k) => found.get(k) ?? []);
      }, options),
  );
