/**
 * Where accepted candidates go: priced entries for the times answer, or just their local dates
 * for the dates answer (which needs no quote).
 */
import type { Money } from '../../../shared/money';
import type { MatchContext, Pricer, Quote, QuoteRequest } from '../../pricing/engine/types';
import { minuteOfDay, type Day } from './calendar';
import { TooManyTimes } from './limits';
import type { AvailableTime, TimeColumns } from './types';

/** What a collector keeps: entry objects, the same entries in columns, or only dates. */
export type CollectorMode = 'entries' | 'columns' | 'dates';

const NO_NUMBERS = new Float64Array(0);
const NO_INDEXES = new Int32Array(0);

/**
 * The numeric columns of one answer, shared by its collectors: a resource's entries follow the
 * previous resource's in the same storage. Typed arrays live outside the JavaScript heap, so the
 * garbage collector neither copies them while the answer is built nor scans them, and a large
 * answer costs a few allocations instead of four growing arrays per resource.
 */
export class ColumnStore {
  starts = NO_NUMBERS;
  ends = NO_NUMBERS;
  durations = NO_NUMBERS;
  priceIndex = NO_INDEXES;
  used = 0;
  /** entries written and collectors created so far, for the size of new storage */
  written = 0;
  collectors = 0;

  /** `resources`: how many collectors will write, one after another */
  constructor(private readonly resources: number) {}

  /**
   * Room for `extra` more entries after `used`. When new storage is needed, the entries from
   * `keepFrom` on move to its start; earlier ones stay where they are, in their collectors' views.
   */
  reserve(extra: number, keepFrom: number): void {
    if (this.used + extra <= this.starts.length) return;
    const { starts, ends, durations, priceIndex, used } = this;
    const kept = used - keepFrom;
    // room for the resources still to come at the mean of those done: growing by doubling
    // allocated (and zeroed) about three times the answer's columns
    const done = this.collectors - 1;
    const expected = done > 0 ? Math.ceil((((this.written - kept) / done) * (this.resources - done) * 9) / 8) : 2 * starts.length;
    const capacity = Math.max(256, expected, 2 * (kept + extra));
    this.starts = new Float64Array(capacity);
    this.ends = new Float64Array(capacity);
    this.durations = new Float64Array(capacity);
    this.priceIndex = new Int32Array(capacity);
    if (kept > 0) {
      this.starts.set(starts.subarray(keepFrom, used));
      this.ends.set(ends.subarray(keepFrom, used));
      this.durations.set(durations.subarray(keepFrom, used));
      this.priceIndex.set(priceIndex.subarray(keepFrom, used));
    }
    this.used = kept;
  }
}

export class Collector {
  readonly entries: AvailableTime[] = [];
  readonly dates: string[] = [];
  private lastDay = -1;
  private readonly withEntries: boolean;
  private readonly inColumns: boolean;
  // this collector's entries: `[begin, begin + count)` of these arrays (the store's, unless another collector took over)
  private starts = NO_NUMBERS;
  private ends = NO_NUMBERS;
  private durations = NO_NUMBERS;
  private priceIndex = NO_INDEXES;
  private begin = 0;
  private count = 0;
  private readonly priceTable: Money[] = [];
  private slots: TimeColumns['slots'] = null;
  /** the pricer's quote for `fixedFor` seconds at every start, while it has one */
  private fixed: Quote | null = null;
  private fixedFor = NaN;
  private fixable = true;

  constructor(
    mode: CollectorMode,
    private readonly pricer: Pricer,
    private readonly currency: string,
    private readonly quote: QuoteRequest,
    private readonly allowance: { left: number } | undefined,
    private readonly store: ColumnStore | null,
  ) {
    this.withEntries = mode !== 'dates';
    this.inColumns = mode === 'columns';
    if (store !== null) store.collectors++;
  }

  /** The entries in columns (views of the store: read them before the store is written again). */
  get columns(): TimeColumns {
    const b = this.begin;
    const e = b + this.count;
    return {
      length: this.count,
      starts: this.starts.subarray(b, e),
      ends: this.ends.subarray(b, e),
      durations: this.durations.subarray(b, e),
      priceIndex: this.priceIndex.subarray(b, e),
      priceTable: this.priceTable,
      slots: this.slots,
    };
  }

  /** The index of the quote's price; consecutive equal prices share one. */
  private sharedPrice(amount: number, comparedAmount: number, currency: string): number {
    const table = this.priceTable;
    const n = table.length;
    const last = n > 0 ? table[n - 1] : null;
    if (last !== null && last.amount === amount && last.comparedAmount === comparedAmount && last.currency === currency) return n - 1;
    table.push({ amount, comparedAmount, currency });
    return n;
  }

  /** Where the next entry goes: after this collector's entries, at the end of the store, with room for it. */
  private claim(): number {
    const st = this.store!;
    const n = this.count;
    if (n > 0 && this.starts === st.starts && this.begin + n === st.used) {
      st.reserve(1, this.begin);
    } else {
      // nothing written yet, or another collector wrote since: continue after the store's last entry
      st.reserve(n + 1, st.used);
      const to = st.used;
      if (n > 0) {
        const b = this.begin;
        st.starts.set(this.starts.subarray(b, b + n), to);
        st.ends.set(this.ends.subarray(b, b + n), to);
        st.durations.set(this.durations.subarray(b, b + n), to);
        st.priceIndex.set(this.priceIndex.subarray(b, b + n), to);
        st.used += n;
      }
    }
    this.begin = st.used - n;
    this.starts = st.starts;
    this.ends = st.ends;
    this.durations = st.durations;
    this.priceIndex = st.priceIndex;
    return st.used;
  }

  private pushColumns(start: number, end: number, durationSec: number, amount: number, comparedAmount: number, currency: string): void {
    const price = this.sharedPrice(amount, comparedAmount, currency);
    const st = this.store!;
    let at = this.begin + this.count;
    if (at !== st.used || this.starts !== st.starts || at >= this.starts.length) at = this.claim();
    this.starts[at] = start;
    this.ends[at] = end;
    this.durations[at] = durationSec;
    this.priceIndex[at] = price;
    st.used = at + 1;
    st.written++;
    this.count++;
  }

  /** The quote at `ctx`; sets `ctx.minuteOfDay` (of `day`) only when the pricer is asked. */
  private quoteAt(ctx: MatchContext, day: Day, durationSec: number): Quote {
    this.quote.durationSec = durationSec;
    if (durationSec === this.fixedFor) return this.fixed!;
    if (this.fixable) {
      const q = this.pricer.fixedQuote?.(this.quote) ?? null;
      if (q !== null) {
        this.fixed = q;
        this.fixedFor = durationSec;
        return q;
      }
      this.fixable = false;
    }
    ctx.minuteOfDay = minuteOfDay(day, ctx.instant);
    return this.pricer.quote(this.quote, ctx);
  }

  private spend(): void {
    if (this.allowance !== undefined && --this.allowance.left < 0) throw new TooManyTimes();
  }

  /** Adds a time of a service without slots; `endTime` defaults to start + duration (a stay ends at check-out). */
  add(ctx: MatchContext, day: Day, durationSec: number, endTime = ctx.instant + durationSec * 1000): void {
    if (!this.withEntries) return this.addDate(day);
    this.spend();
    const q = this.quoteAt(ctx, day, durationSec);
    if (this.inColumns) return this.pushColumns(ctx.instant, endTime, durationSec, q.amount, q.comparedAmount, q.currency || this.currency);
    // Every entry gets the same fields so the engine's output stays one object shape.
    this.entries.push({
      startTime: ctx.instant,
      endTime,
      durationSec,
      price: { amount: q.amount, comparedAmount: q.comparedAmount, currency: q.currency || this.currency },
      spotsAvailable: null,
      totalSpots: null,
      bookedSpots: null,
      bookedSpotsPerTicket: null,
      totalSpotsPerTicket: null,
      ticketPrices: null,
    });
  }

  /** Adds a slot occurrence with its capacity figures; per-ticket objects only for ticket services. */
  addSlot(
    ctx: MatchContext,
    day: Day,
    durationSec: number,
    totalSpots: number,
    bookedSpots: number,
    bookedPerTicket: Record<string, number> | null,
    totalPerTicket: Record<string, number> | null,
  ): void {
    if (!this.withEntries) return this.addDate(day);
    this.spend();
    const q = this.quoteAt(ctx, day, durationSec);
    if (this.inColumns) {
      const slots = (this.slots ??= {
        totalSpots: [],
        bookedSpots: [],
        bookedSpotsPerTicket: [],
        totalSpotsPerTicket: [],
        ticketPrices: [],
      });
      slots.totalSpots.push(totalSpots);
      slots.bookedSpots.push(bookedSpots);
      slots.bookedSpotsPerTicket.push(bookedPerTicket);
      slots.totalSpotsPerTicket.push(totalPerTicket);
      slots.ticketPrices.push(bookedPerTicket === null ? null : (q.ticketPrices ?? {}));
      return this.pushColumns(
        ctx.instant,
        ctx.instant + durationSec * 1000,
        durationSec,
        q.amount,
        q.comparedAmount,
        q.currency || this.currency,
      );
    }
    this.entries.push({
      startTime: ctx.instant,
      endTime: ctx.instant + durationSec * 1000,
      durationSec,
      price: { amount: q.amount, comparedAmount: q.comparedAmount, currency: q.currency || this.currency },
      spotsAvailable: totalSpots - bookedSpots,
      totalSpots,
      bookedSpots,
      bookedSpotsPerTicket: bookedPerTicket,
      totalSpotsPerTicket: totalPerTicket,
      ticketPrices: bookedPerTicket === null ? null : (q.ticketPrices ?? {}),
    });
  }

  private addDate(day: Day): void {
    // candidates arrive in time order, so a date repeats only right after itself
    if (day.index === this.lastDay) return;
    this.lastDay = day.index;
    this.dates.push(day.date);
  }
}
