/**
 * Where accepted candidates go: priced entries for the times answer, or just their local dates
 * for the dates answer (which needs no quote).
 */
import type { MatchContext, Pricer, QuoteRequest } from '../../pricing/engine/types';
import type { Day } from './calendar';
import { TooManyTimes } from './limits';
import type { AvailableTime } from './types';

export class Collector {
  readonly entries: AvailableTime[] = [];
  readonly dates: string[] = [];
  private lastDay = -1;

  constructor(
    private readonly withEntries: boolean,
    private readonly pricer: Pricer,
    private readonly currency: string,
    private readonly quote: QuoteRequest,
    private readonly allowance: { left: number } | undefined,
  ) {}

  private spend(): void {
    if (this.allowance !== undefined && --this.allowance.left < 0) throw new TooManyTimes();
  }

  /** Adds a time of a service without slots; `endTime` defaults to start + duration (a stay ends at check-out). */
  add(ctx: MatchContext, day: Day, durationSec: number, endTime = ctx.instant + durationSec * 1000): void {
    if (!this.withEntries) return this.addDate(day);
    this.spend();
    this.quote.durationSec = durationSec;
    const q = this.pricer.quote(this.quote, ctx);
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
