import type { MikroORM } from '@mikro-orm/postgresql';
import { isDbOutOfResources } from '../shared/errors';

/**
 * How long `/ready` answers 503 after the database last refused a statement for lack of
 * resources (SQLSTATE class 53: disk full, out of memory, too many connections). A load balancer
 * then sends no more writes here; once the window passes without another such failure, `/ready`
 * answers 200 again and the next writes show whether the resource is back.
 */
export const SHORTAGE_WINDOW_MS = 10_000;

/** The last time the database said it lacks resources, and whether that is recent. */
export class ResourceShortage {
  private lastAt: number | null = null;

  constructor(readonly windowMs = SHORTAGE_WINDOW_MS) {}

  /** A statement failed with a class-53 SQLSTATE at `now`. */
  record(now: number): void {
    this.lastAt = this.lastAt === null ? now : Math.max(this.lastAt, now);
  }

  /** The time of the last such failure while it is less than the window ago, else null. */
  recent(now: number): number | null {
    return this.lastAt !== null && now - this.lastAt < this.windowMs ? this.lastAt : null;
  }
}

/**
 * Watches every statement of the ORMs' pools (in transactions too) for class-53 failures, the
 * way a background job's or a request's write meets a full disk alike. `stop()` detaches.
 */
export function watchResourceShortage(
  orms: MikroORM | (MikroORM | undefined)[],
  now: () => number,
  shortage = new ResourceShortage(),
): { shortage: ResourceShortage; stop(): void } {
  const onError = (err: unknown) => {
    if (isDbOutOfResources(err)) shortage.record(now());
  };
  const knexes = [...new Set([orms].flat())].filter((o) => o !== undefined).map((o) => o.em.getConnection().getKnex());
  for (const knex of knexes) knex.on('query-error', onError);
  return { shortage, stop: () => knexes.forEach((knex) => void knex.off('query-error', onError)) };
}
