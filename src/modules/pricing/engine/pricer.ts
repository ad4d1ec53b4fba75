import { SECONDS_PER_DAY, formatDuration } from '../../../shared/duration';
import { RuleChooser, type RankedRule } from './select';
import type {
  DiscountInput,
  DiscountRuleInput,
  MatchContext,
  PriceRuleInput,
  Pricer,
  PricingStep,
  Quote,
  QuoteRequest,
  TicketQuote,
} from './types';
import type { Money } from '../../../shared/money';
import type { ServiceType } from '../../../shared/service-type';

export interface PricerInput {
  serviceType: ServiceType;
  currency: string;
  /** the company's IANA zone */
  zone: string;
  priceRules: readonly PriceRuleInput[];
  discounts: readonly DiscountInput[];
  /**
   * Ticket services: the service's tickets. Optional; when given, `ticketPrices` lists exactly
   * these (those a rule prices), including tickets priced only by a rule without `ticketID`.
   * Without it, the tickets named by price rules are listed.
   */
  ticketIDs?: readonly string[];
}

/** Service types whose price and bookable length follow a duration step. */
const STEPPED: ReadonlySet<ServiceType> = new Set<ServiceType>(['flexible', 'sharable', 'days']);

/** Durations of zero or less are treated as "not set": a zero step would divide by zero. */
function positiveOrNull(n: number | null | undefined): number | null {
  return typeof n === 'number' && n > 0 ? n : null;
}

/** Integer ceiling of a / b for b > 0; a negative or zero length counts as no steps. */
function ceilDiv(a: number, b: number): number {
  if (a <= 0) return 0;
  const q = Math.trunc(a / b);
  return a % b === 0 ? q : q + 1;
}

/**
 * How many times the rule's price is charged.
 * - flexible, sharable: per started step, so a 70-minute stay on a 30-minute step pays 3; a
 *   rule without a step prices the booking as a whole. A zero-length booking (a sharable
 *   rental closed at once) is zero steps and costs nothing.
 * - days: per started step where the step defaults to one day (P1D).
 * - group: per spot.
 */
function unitsOf(type: ServiceType, rule: PriceRuleInput, req: QuoteRequest): number {
  switch (type) {
    case 'flexible':
    case 'sharable': {
      const step = positiveOrNull(rule.durationSec);
      return step === null ? 1 : ceilDiv(req.durationSec, step);
    }
    case 'days':
      return ceilDiv(req.durationSec, positiveOrNull(rule.durationSec) ?? SECONDS_PER_DAY);
    case 'group':
      return Math.max(0, Math.trunc(req.spots));
    default:
      return 1;
  }
}

interface PreparedDiscount extends RankedRule {
  sumsUp: boolean;
  /** volume rules that apply to any ticket (and every rule of a `spots` discount) */
  generic: readonly DiscountRuleInput[];
  byTicket: ReadonlyMap<string, readonly DiscountRuleInput[]>;
}

function prepareDiscount(d: DiscountInput, perTicket: boolean): PreparedDiscount {
  const generic: DiscountRuleInput[] = [];
  const byTicket = new Map<string, DiscountRuleInput[]>();
  for (const r of d.rules) {
    // A ticketID means nothing on spots; such rules still apply to the spot count.
    if (perTicket && r.ticketID) {
      const list = byTicket.get(r.ticketID);
      if (list) list.push(r);
      else byTicket.set(r.ticketID, [r]);
    } else {
      generic.push(r);
    }
  }
  return { id: d.id, priority: d.priority, createdAt: d.createdAt, limitation: d.limitation, sumsUp: d.sumsUp, generic, byTicket };
}

/**
 * The discounted unit price a discount offers for `count`, or null when none of its volume
 * rules covers the count. A rule naming the ticket wins over a rule for any ticket; within
 * each group the first listed rule covering the count wins.
 */
function volumePrice(d: PreparedDiscount, ticketID: string | null, count: number): number | null {
  if (ticketID !== null) {
    const own = d.byTicket.get(ticketID);
    if (own) for (const r of own) if (count >= r.from && count <= r.to) return r.price;
  }
  for (const r of d.generic) if (count >= r.from && count <= r.to) return r.price;
  return null;
}

/**
 * Unit price after discounts. `active` are the discounts whose limitation matches, in choice
 * order. A discount is applicable only if one of its volume rules covers the count, so tiers
 * kept as separate discounts (5-9 spots, 10+ spots) each win on their own range. The first
 * applicable one is chosen; when it sums up, the reductions of every other applicable
 * summing discount are added. A discount never raises a price (a volume price above the
 * current list price reduces nothing), and the result never goes below zero.
 */
function discountedUnit(base: number, count: number, ticketID: string | null, active: readonly PreparedDiscount[]): number {
  for (let i = 0; i < active.length; i++) {
    const price = volumePrice(active[i], ticketID, count);
    if (price === null) continue;
    let reduction = Math.max(0, base - price);
    if (active[i].sumsUp) {
      // Earlier discounts were not applicable (else they would have been chosen); only later ones can add.
      for (let j = i + 1; j < active.length; j++) {
        if (!active[j].sumsUp) continue;
        const other = volumePrice(active[j], ticketID, count);
        if (other !== null) reduction += Math.max(0, base - other);
      }
    }
    return Math.max(0, base - reduction);
  }
  return base;
}

function stepOf(rule: PriceRuleInput | undefined): PricingStep | null {
  const durationSec = positiveOrNull(rule?.durationSec);
  if (!rule || durationSec === null) return null;
  return { durationSec, minDurationSec: positiveOrNull(rule.minDurationSec), maxDurationSec: positiveOrNull(rule.maxDurationSec) };
}

/**
 * Prices one service from its rules. Only price rules whose `type` is the service type count:
 * rules left over from a former type must not price the service. For group services the
 * `spots` discounts apply, for ticket services the `ticket` discounts; other services have
 * no volume to discount. Amounts are integers in the smallest currency unit; nothing here
 * divides money, so no rounding arises.
 */
export function createPricer(input: PricerInput): Pricer {
  const { serviceType, currency, zone } = input;
  const rules = input.priceRules.filter((r) => r.type === serviceType);
  const discountType = serviceType === 'group' ? 'spots' : serviceType === 'ticket' ? 'ticket' : null;
  const discounts = new RuleChooser(
    discountType === null
      ? []
      : input.discounts.filter((d) => d.type === discountType).map((d) => prepareDiscount(d, discountType === 'ticket')),
    zone,
  );
  const checkType = (req: QuoteRequest): void => {
    if (req.serviceType !== serviceType)
      throw new RangeError(`pricer for ${serviceType} services asked to quote a ${req.serviceType} booking`);
  };
  if (serviceType === 'ticket') return ticketPricer(input, rules, discounts, checkType);

  const chooser = new RuleChooser(rules, zone);
  const stepped = STEPPED.has(serviceType);
  const quote = (req: QuoteRequest, ctx: MatchContext): Quote => {
    checkType(req);
    const rule = chooser.choose(ctx);
    if (!rule) return { amount: 0, comparedAmount: 0, currency };
    const units = unitsOf(serviceType, rule, req);
    const unit = discounts.size > 0 && units > 0 ? discountedUnit(rule.price, units, null, discounts.applicable(ctx)) : rule.price;
    // Without a compared price the list price is the reference, so a discount shows as a saving.
    return { amount: unit * units, comparedAmount: (rule.comparedPrice ?? rule.price) * units, currency };
  };
  const fixed = chooser.chosenEverywhere && discounts.unconditional;
  return {
    quote,
    step(ctx: MatchContext): PricingStep | null {
      return stepped ? stepOf(chooser.choose(ctx)) : null;
    },
    fixedQuote(req: QuoteRequest): Quote | null {
      // no matcher reads the context when every rule in play applies everywhere
      return fixed ? quote(req, ANYWHERE) : null;
    },
  };
}

/** A context for rules that apply everywhere (they never read it). */
const ANYWHERE: MatchContext = Object.freeze({ resourceID: '', instant: 0, date: '', weekday: 1, minuteOfDay: 0 });

/**
 * Ticket services price each ticket by its own rules (those with its `ticketID`); a rule
 * without `ticketID` prices every ticket for which none of its own rules applies at that time,
 * so a ticket may have, say, only a weekend price of its own and the general price otherwise.
 */
function ticketPricer(
  input: PricerInput,
  rules: readonly PriceRuleInput[],
  discounts: RuleChooser<PreparedDiscount>,
  checkType: (req: QuoteRequest) => void,
): Pricer {
  const { currency, zone } = input;
  const grouped = new Map<string, PriceRuleInput[]>();
  const general: PriceRuleInput[] = [];
  for (const r of rules) {
    if (!r.ticketID) {
      general.push(r);
      continue;
    }
    const list = grouped.get(r.ticketID);
    if (list) list.push(r);
    else grouped.set(r.ticketID, [r]);
  }
  const own = new Map<string, RuleChooser<PriceRuleInput>>();
  for (const [ticketID, list] of grouped) own.set(ticketID, new RuleChooser(list, zone));
  const fallback = new RuleChooser(general, zone);
  const listed = input.ticketIDs ? [...new Set(input.ticketIDs)] : [...own.keys()];

  const ruleFor = (ticketID: string, ctx: MatchContext): PriceRuleInput | undefined =>
    own.get(ticketID)?.choose(ctx) ?? fallback.choose(ctx);
  const listPrice = (rule: PriceRuleInput): Money => ({ amount: rule.price, comparedAmount: rule.comparedPrice ?? rule.price, currency });

  return {
    quote(req: QuoteRequest, ctx: MatchContext): Quote {
      checkType(req);
      // List prices: the available-time entry has no counts yet, so volume discounts cannot apply there.
      const ticketPrices: Record<string, Money> = {};
      for (const ticketID of listed) {
        const rule = ruleFor(ticketID, ctx);
        if (rule) ticketPrices[ticketID] = listPrice(rule);
      }
      const tickets: Record<string, TicketQuote> = {};
      let amount = 0;
      let comparedAmount = 0;
      let active: PreparedDiscount[] | null = null;
      for (const ticketID of Object.keys(req.tickets)) {
        const count = req.tickets[ticketID];
        if (!Number.isSafeInteger(count) || count <= 0) continue;
        const rule = ruleFor(ticketID, ctx);
        if (rule && !(ticketID in ticketPrices)) ticketPrices[ticketID] = listPrice(rule);
        // A requested ticket no rule prices is free, like a service without price rules.
        const base = rule ? rule.price : 0;
        const comparedPrice = rule?.comparedPrice ?? base;
        if (active === null) active = discounts.size > 0 ? discounts.applicable(ctx) : [];
        const price = discountedUnit(base, count, ticketID, active);
        tickets[ticketID] = { spots: count, price, comparedPrice };
        amount += price * count;
        comparedAmount += comparedPrice * count;
      }
      return { amount, comparedAmount, currency, ticketPrices, tickets };
    },
    step(): PricingStep | null {
      return null;
    },
  };
}

/**
 * Checks a requested flexible (or sharable) length against the step in force at the start;
 * returns the problem as a message, or null when the length is fine. A null step means no
 * price rule with a duration applies at that time, so no length can be priced.
 */
export function validateFlexibleDuration(step: PricingStep | null, durationSec: number): string | null {
  if (step === null || !(step.durationSec > 0)) return 'no flexible pricing is configured for this time';
  if (!Number.isSafeInteger(durationSec) || durationSec <= 0) return 'duration must be positive';
  const unit = formatDuration(step.durationSec);
  if (durationSec % step.durationSec !== 0) return `duration must be a whole multiple of ${unit}`;
  if (step.minDurationSec !== null && durationSec < step.minDurationSec)
    return `duration must be at least ${formatDuration(step.minDurationSec)}`;
  if (step.maxDurationSec !== null && durationSec > step.maxDurationSec)
    return `duration must be at most ${formatDuration(step.maxDurationSec)}`;
  return null;
}
