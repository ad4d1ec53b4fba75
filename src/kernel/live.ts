import { randomUUID } from 'node:crypto';
import { renewCtx, type AppDeps, type ChangeFeed, type Ctx } from './context';
import { unavailable } from '../shared/errors';

/**
 * Live updates (GraphQL subscriptions) fed by the database's change announcements
 * (src/db/functions/booking_changed.sql, availability_changed.sql, company_changed.sql): every
 * process hears every commit, of any process, within moments of it, and never a change that
 * rolled back. One `LiveFeed` per process parses each announcement once and hands it to the
 * subscriptions of its company only.
 */

export const BOOKING_CHANGE_KINDS = ['created', 'confirmed', 'moved', 'cancelled', 'updated'] as const;
export type BookingChangeKind = (typeof BOOKING_CHANGE_KINDS)[number];

/** A booking's change as announced, merged per transaction. */
export interface BookingNote {
  bookingId: string;
  type: BookingChangeKind;
  at: Date;
}

/**
 * A change to what available times are computed from. A null key is a change not limited by it
 * (a price rule concerns every resource of its service); `from`/`until` are epoch ms, null
 * unbounded on that side; both null: every time.
 */
export interface AvailabilityNote {
  /** the table of the changed row */
  table: string;
  serviceId: string | null;
  resourceId: string | null;
  from: number | null;
  until: number | null;
}

/** Everything may have changed (the company itself, or announcements that may have been missed). */
export const EVERYTHING = 'everything';
export type AvailabilityNotes = AvailabilityNote[] | typeof EVERYTHING;

/** A transaction announcing several kinds of change of one booking is one change of the first of these. */
const PRECEDENCE: Record<BookingChangeKind, number> = { created: 5, cancelled: 4, confirmed: 3, moved: 2, updated: 1 };

type Listeners<T> = Map<string, Set<(notes: T) => void>>;

export type WatchKind = 'bookings' | 'availability';
/** How long a watch lives unless renewed (a third of it apart) by its process. */
const WATCH_TTL_SEC = 60;

function listen<T>(map: Listeners<T>, companyId: string, listener: (notes: T) => void): () => void {
  let set = map.get(companyId);
  if (!set) map.set(companyId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (!set.size && map.get(companyId) === set) map.delete(companyId);
  };
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v.toLowerCase() : null);
const ms = (v: unknown): number | null => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : null;
};

/**
 * The announcements of one process, handed to its subscriptions by company. Those arriving
 * together (one transaction's, delivered at its commit) are passed on together at the next turn
 * of the event loop, a booking's merged per transaction.
 */
export class LiveFeed {
  /** this process, in live_watch */
  private readonly watcher = randomUUID();
  /** `kind|company` -> subscriptions of this process, and the registration of the first */
  private readonly watches = new Map<string, { count: number; registered: Promise<void> }>();
  private refresher: NodeJS.Timeout | null = null;
  private readonly bookings: Listeners<BookingNote[]> = new Map();
  private readonly availability: Listeners<AvailabilityNotes> = new Map();
  private pendingBookings = new Map<string, Map<string, BookingNote>>();
  private pendingAvailability = new Map<string, AvailabilityNotes>();
  private everything = false;
  private scheduled = false;

  constructor(
    changes: ChangeFeed,
    private readonly deps: AppDeps,
  ) {
    changes.subscribe('booking_changed', (p) => this.heardBooking(p));
    changes.subscribe('availability_changed', (p) => this.heardAvailability(p));
    // a company's time zone changes its times
    changes.subscribe('company_changed', (p) => this.heardCompany(p));
  }

  private sql(text: string, params: unknown[]): Promise<unknown> {
    return this.deps.orm.em.fork().getConnection().execute(text, params, 'run');
  }

  /**
   * Tells the database that this process watches a company's changes of a kind, so that they
   * are announced (live_watch; the triggers announce only watched companies); resolves once
   * that is committed. Returns the function that ends this watch (the row goes with the
   * process's last watch of the company, or expires WATCH_TTL_SEC after the process stopped
   * renewing it).
   */
  async watch(companyId: string, kind: WatchKind): Promise<() => void> {
    const key = `${kind}|${companyId}`;
    let w = this.watches.get(key);
    if (!w) {
      const registered = this.sql(
        `with expired as (delete from live_watch where company_id = ? and kind = ? and expires_at < now())
         insert into live_watch (company_id, kind, watcher, expires_at) values (?, ?, ?, now() + make_interval(secs => ?))
         on conflict (company_id, kind, watcher) do update set expires_at = excluded.expires_at`,
        [companyId, kind, companyId, kind, this.watcher, WATCH_TTL_SEC],
      ).then(() => undefined);
      this.watches.set(key, (w = { count: 0, registered }));
    }
    w.count++;
    const watch = w;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--watch.count > 0 || this.watches.get(key) !== watch) return;
      this.watches.delete(key);
      this.sql('delete from live_watch where company_id = ? and kind = ? and watcher = ?', [companyId, kind, this.watcher]).catch(
        (err: unknown) => this.deps.log.warn({ err }, 'live updates: could not remove a watch (it expires)'),
      );
    };
    try {
      await watch.registered;
    } catch (err) {
      release();
      if (this.watches.get(key) === watch) this.watches.delete(key);
      this.deps.log.warn({ err }, 'live updates: could not register a watch');
      throw unavailable('live updates cannot start now; subscribe again in a moment');
    }
    this.renewing();
    return release;
  }

  /** Renews this process's watches while it has some (a stopped process's expire). */
  private renewing(): void {
    if (this.refresher) return;
    this.refresher = setInterval(
      () => {
        if (!this.watches.size) {
          clearInterval(this.refresher!);
          this.refresher = null;
          return;
        }
        const companies = [...new Set([...this.watches.keys()].map((k) => k.slice(k.indexOf('|') + 1)))];
        this.sql('update live_watch set expires_at = now() + make_interval(secs => ?) where company_id = any(?::uuid[]) and watcher = ?', [
          WATCH_TTL_SEC,
          `{${companies.join(',')}}`,
          this.watcher,
        ]).catch((err: unknown) => this.deps.log.warn({ err }, 'live updates: could not renew the watches'));
      },
      (WATCH_TTL_SEC * 1000) / 3,
    );
    this.refresher.unref();
  }

  /** The booking changes of a company; returns the function that stops listening. */
  onBookings(companyId: string, listener: (notes: BookingNote[]) => void): () => void {
    return listen(this.bookings, companyId, listener);
  }

  /** The availability changes of a company; returns the function that stops listening. */
  onAvailability(companyId: string, listener: (notes: AvailabilityNotes) => void): () => void {
    return listen(this.availability, companyId, listener);
  }

  private parse(payload: string): Record<string, unknown> | null {
    try {
      const v = JSON.parse(payload) as unknown;
      return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  private heardBooking(payload: string | null): void {
    // announcements missed while the connection was down are not replayed (docs/design/graphql.md)
    if (payload === null) return;
    const p = this.parse(payload);
    const companyId = str(p?.c);
    const bookingId = str(p?.b);
    const type = p?.t as BookingChangeKind;
    if (!companyId || !bookingId || !(type in PRECEDENCE) || !this.bookings.has(companyId)) return;
    let pending = this.pendingBookings.get(companyId);
    if (!pending) this.pendingBookings.set(companyId, (pending = new Map()));
    const key = `${bookingId}|${String(p?.x)}`;
    const known = pending.get(key);
    if (!known || PRECEDENCE[type] > PRECEDENCE[known.type]) pending.set(key, { bookingId, type, at: new Date(ms(p?.at) ?? Date.now()) });
    this.schedule();
  }

  private heardAvailability(payload: string | null): void {
    if (payload === null) return this.heardCompany(null);
    const p = this.parse(payload);
    const companyId = str(p?.c);
    if (!companyId || !this.availability.has(companyId)) return;
    const pending = this.pendingAvailability.get(companyId);
    if (pending === EVERYTHING) return;
    const note: AvailabilityNote = { table: String(p?.k), serviceId: str(p?.s), resourceId: str(p?.r), from: ms(p?.f), until: ms(p?.u) };
    if (pending) pending.push(note);
    else this.pendingAvailability.set(companyId, [note]);
    this.schedule();
  }

  /** A company changed (null: announcements may have been missed, every company). */
  private heardCompany(payload: string | null): void {
    if (payload === null) this.everything = true;
    else {
      const companyId = str(payload);
      if (!companyId || !this.availability.has(companyId)) return;
      this.pendingAvailability.set(companyId, EVERYTHING);
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const bookings = this.pendingBookings;
    const availability = this.pendingAvailability;
    this.pendingBookings = new Map();
    this.pendingAvailability = new Map();
    if (this.everything) {
      this.everything = false;
      for (const companyId of this.availability.keys()) availability.set(companyId, EVERYTHING);
    }
    for (const [companyId, notes] of bookings) {
      const list = [...notes.values()];
      for (const listener of this.bookings.get(companyId) ?? []) listener(list);
    }
    for (const [companyId, notes] of availability) for (const listener of this.availability.get(companyId) ?? []) listener(notes);
  }
}

const feeds = new WeakMap<ChangeFeed, LiveFeed>();

/**
 * The process's live feed (started with its first subscription), once it listens: a change
 * committed after this resolves reaches the subscriptions. `service_unavailable` without a
 * change feed, or while its connection is down.
 */
export async function liveFeed(deps: AppDeps): Promise<LiveFeed> {
  const changes = deps.changes;
  if (!changes) throw unavailable('live updates need the database change feed, which this process does not run');
  let feed = feeds.get(changes);
  if (!feed) feeds.set(changes, (feed = new LiveFeed(changes, deps)));
  await changes.listening?.();
  if (!changes.live) throw unavailable('the database change feed is reconnecting; subscribe again in a moment');
  return feed;
}

/** Events a subscription keeps for a slow client when its connection sets no limit. */
const DEFAULT_MAX_QUEUED = 100;

/**
 * A subscription's events as the async iterator graphql-js subscribes to. `start` begins
 * listening with a `push` and returns the function that stops it (called when the client ends
 * the subscription, or its connection closes). Events wait in a queue while the client has not
 * taken the previous ones; more than the connection's `maxQueued` ends the connection
 * (`ctx.live.overflow`): memory never grows with a client that does not read. `merge` folds a
 * new event into the last waiting one (changes that mean "fetch again" add up to one).
 * Before each event the context is made fresh (`renewCtx`), as a new request's would be.
 */
export function liveStream<T>(
  ctx: Ctx,
  start: (push: (item: T) => void) => () => void,
  merge?: (waiting: T, next: T) => T,
): AsyncIterableIterator<T> {
  const limit = ctx.live?.maxQueued ?? DEFAULT_MAX_QUEUED;
  const queue: T[] = [];
  let taker: ((r: IteratorResult<T>) => void) | null = null;
  let done = false;
  let stop: (() => void) | null = null;
  const finish = () => {
    if (done) return;
    done = true;
    queue.length = 0;
    stop?.();
    taker?.({ value: undefined, done: true });
    taker = null;
  };
  stop = start((item) => {
    if (done) return;
    if (taker) {
      const take = taker;
      taker = null;
      renewCtx(ctx);
      take({ value: item, done: false });
    } else if (merge && queue.length) queue[queue.length - 1] = merge(queue[queue.length - 1], item);
    else if (queue.push(item) > limit) {
      finish();
      ctx.live?.overflow();
    }
  });
  if (done) stop();
  const iterator: AsyncIterableIterator<T> = {
    next() {
      if (queue.length) {
        renewCtx(ctx);
        return Promise.resolve({ value: queue.shift()!, done: false });
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => (taker = resolve));
    },
    return() {
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err: unknown) {
      finish();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
