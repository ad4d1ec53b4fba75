/**
 * Where accepted candidates go: priced entries for the times answer, or just their local dates
 * for the dates answer (which needs no quote).
 */
import type { Money } from '../../../shared/money';
import type { MatchContext, Pricer, QuoteRequest } from '../../pricing/engine/types';
import type { Day } from './calendar';
import { TooManyTimes } from './limits';
import type { AvailableTime, TimeColumns } from './types';

/** What a collector keeps: entry objects, the same entries in columns, or only dates. */
export type CollectorMode = 'entries' | 'columns' | 'dates';

function emptyColumns(): TimeColumns {
  return { length: 0, starts: [], ends: [], durations: [], prices: [], slots: null };
}

export class Collector {
  readonly entries: AvailableTime[] = [];
  readonly columns: TimeColumns = emptyColumns();
  readonly dates: string[] = [];
  private lastDay = -1;
  private readonly withEntries: boolean;
  private readonly inColumns: boolean;

  constructor(
    mode: CollectorMode,
    private readonly pricer: Pricer,
    private readonly currency: string,
    private readonly quote: QuoteRequest,
    private readonly allowance: { left: number } | undefined,
  ) {
    this.withEntries = mode !== 'dates';
    this.inColumns = mode === 'columns';
  }

  /** The quote's price; in columns, consecutive equal prices share one object (read-only). */
  private sharedPrice(amount: number, comparedAmount: number, currency: string): Money {
    const prices = this.columns.prices;
    const last = prices.length > 0 ? prices[prices.length - 1] : null;
    if (last !== null && last.amount === amount && last.comparedAmount === comparedAmount && last.currency === currency) return last;
    return { amount, comparedAmount, currency };
  }

  private pushColumns(start: number, end: number, durationSec: number, amount: number, comparedAmount: number, currency: string): void {
    const c = this.columns;
    c.prices.push(this.sharedPrice(amount, comparedAmount, currency));
    c.starts.push(start);
    c.ends.push(end);
    c.durations.push(durationSec);
    c.length++;
  }

  private spend(): void {
    if (this.allowance !== undefined && --this.allowance.left < 0) throw new TooManyTimes();
  }

  /** Adds a time of a service without slots; `endTime` defaults to start + duration (a stay ends at check-out). */
  add(ctx: MatchContext, day: Day, durationSec: number, endTime = ctx.instant + durationSec * 1000): void {
    if (!this.withEntries) return this.addDate(day);
    this.spend();
    this.quote.durationSec = durationSec;
    const q = this.pricer.quote(this.quote, ctx);
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
    this.quote.durationSec = durationSec;
    const q = this.pricer.quote(this.quote, ctx);
    if (this.inColumns) {
      const c = this.columns;
      const slots = (c.slots ??= { totalSpots: [], bookedSpots: [], bookedSpotsPerTicket: [], totalSpotsPerTicket: [], ticketPrices: [] });
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
