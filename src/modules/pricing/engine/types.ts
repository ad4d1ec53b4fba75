import type { LimitationInput } from '../../../shared/limitation';
import type { Money } from '../../../shared/money';
import type { ServiceType } from '../../../shared/service-type';

/**
 * Shapes shared by the pure pricing code and the availability engine. Times are epoch
 * milliseconds, durations whole seconds, money integers in the smallest currency unit.
 */

/** Where and when a rule is being evaluated: a candidate start on a resource, in company-local terms. */
export interface MatchContext {
  resourceID: string;
  /** the start instant */
  instant: number;
  /** local date `YYYY-MM-DD` of the start */
  date: string;
  /** ISO weekday of `date`, 1 = Monday */
  weekday: number;
  /** local wall-clock minutes since midnight of the start */
  minuteOfDay: number;
}

export interface PriceRuleInput {
  id: string;
  type: ServiceType;
  priority: number;
  /** creation time; ties in priority go to the newest */
  createdAt: number;
  /** pricing step for flexible, sharable and days services (seconds) */
  durationSec: number | null;
  minDurationSec: number | null;
  maxDurationSec: number | null;
  price: number;
  comparedPrice: number | null;
  ticketID: string | null;
  limitation: LimitationInput | null;
}

export interface DiscountRuleInput {
  from: number;
  to: number;
  price: number;
  ticketID?: string | null;
}

export interface DiscountInput {
  id: string;
  type: 'ticket' | 'spots';
  priority: number;
  createdAt: number;
  sumsUp: boolean;
  rules: DiscountRuleInput[];
  limitation: LimitationInput | null;
}

export interface QuoteRequest {
  serviceType: ServiceType;
  /** booked length in seconds (days services: days * 86400) */
  durationSec: number;
  /** group: spots booked (default 1); ticket: sum of tickets */
  spots: number;
  /** ticket services: ticketID -> count */
  tickets: Record<string, number>;
}

export interface TicketQuote {
  spots: number;
  /** unit price after discounts */
  price: number;
  comparedPrice: number;
}

export interface Quote extends Money {
  /** ticket services: unit price per ticket of the service (for the available-time entry) */
  ticketPrices?: Record<string, Money>;
  /** ticket services: what the requested tickets cost (for the booking snapshot) */
  tickets?: Record<string, TicketQuote>;
}

/** The pricing step that governs flexible and sharable durations at a given start. */
export interface PricingStep {
  durationSec: number;
  minDurationSec: number | null;
  maxDurationSec: number | null;
}

/** Prices one service; built once per request from its rules and discounts. */
export interface Pricer {
  /** The quote for a booking starting at `ctx`; when no price rule applies the amounts are 0 (free of charge). */
  quote(req: QuoteRequest, ctx: MatchContext): Quote;
  /** The flexible/sharable/days step at `ctx`, or null when no price rule with a duration applies. */
  step(ctx: MatchContext): PricingStep | null;
  /**
   * The quote `quote(req, ctx)` gives at every `ctx`, when no rule or discount depends on the
   * start or the resource; null (or no such method) when it may. Lets a caller pricing many
   * starts ask once per length.
   */
  fixedQuote?(req: QuoteRequest): Quote | null;
}
