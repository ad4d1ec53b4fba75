import { matchContextAt } from './context';
import { createPricer, type PricerInput } from './pricer';
import type { DiscountInput, PriceRuleInput, QuoteRequest } from './types';

const ZONE = 'America/New_York';
// Monday 2 March 2026 and Saturday 7 March 2026, 10:00 in New York (UTC-5)
const MON = matchContextAt(ZONE, Date.parse('2026-03-02T15:00:00Z'), 'r1');
const SAT = matchContextAt(ZONE, Date.parse('2026-03-07T15:00:00Z'), 'r1');

let seq = 0;
function rule(price: number, p: Partial<PriceRuleInput> = {}): PriceRuleInput {
  seq += 1;
  return {
    id: `p${seq}`,
    type: 'ticket',
    priority: 0,
    createdAt: seq,
    durationSec: null,
    minDurationSec: null,
    maxDurationSec: null,
    price,
    comparedPrice: null,
    ticketID: null,
    limitation: null,
    ...p,
  };
}
function discount(p: Partial<DiscountInput> & Pick<DiscountInput, 'rules'>): DiscountInput {
  seq += 1;
  return { id: `d${seq}`, type: 'ticket', priority: 0, createdAt: seq, sumsUp: false, limitation: null, ...p };
}
const req = (tickets: Record<string, number>): QuoteRequest => ({
  serviceType: 'ticket',
  durationSec: 3600,
  spots: Object.values(tickets).reduce((a, b) => a + b, 0),
  tickets,
});
const pricer = (priceRules: PriceRuleInput[], discounts: DiscountInput[] = [], extra: Partial<PricerInput> = {}) =>
  createPricer({ serviceType: 'ticket', currency: 'USD', zone: ZONE, priceRules, discounts, ...extra });
const money = (amount: number, comparedAmount = amount) => ({ amount, comparedAmount, currency: 'USD' });

describe('ticket services', () => {
  const adult = rule(2000, { ticketID: 'adult', comparedPrice: 2500 });
  const child = rule(1000, { ticketID: 'child' });

  it('price each requested ticket by its own rule and sum them', () => {
    expect(pricer([adult, child]).quote(req({ adult: 2, child: 3 }), MON)).toEqual({
      ...money(7000, 8000),
      ticketPrices: { adult: money(2000, 2500), child: money(1000) },
      tickets: { adult: { spots: 2, price: 2000, comparedPrice: 2500 }, child: { spots: 3, price: 1000, comparedPrice: 1000 } },
    });
  });

  it('list every priced ticket even when none is requested', () => {
    expect(pricer([adult, child]).quote(req({}), MON)).toEqual({
      ...money(0),
      ticketPrices: { adult: money(2000, 2500), child: money(1000) },
      tickets: {},
    });
  });

  it('fall back to a rule without ticketID for tickets without an own rule', () => {
    const p = pricer([adult, rule(1500)]);
    const q = p.quote(req({ adult: 1, senior: 2 }), MON);
    expect(q.tickets).toEqual({
      adult: { spots: 1, price: 2000, comparedPrice: 2500 },
      senior: { spots: 2, price: 1500, comparedPrice: 1500 },
    });
    expect(q.amount).toBe(5000);
    expect(q.ticketPrices).toEqual({ adult: money(2000, 2500), senior: money(1500) });
  });

  it('fall back when the own rules of a ticket do not apply at that time', () => {
    const p = pricer([rule(800, { ticketID: 'child', limitation: { daysOfWeek: 3 } }), rule(1500)]);
    expect(p.quote(req({ child: 1 }), SAT).amount).toBe(800);
    expect(p.quote(req({ child: 1 }), MON).amount).toBe(1500);
  });

  it('prefer an own rule over the fallback whatever their priorities', () => {
    const p = pricer([rule(1200, { ticketID: 'child' }), rule(1500, { priority: 99 })]);
    expect(p.quote(req({ child: 1 }), MON).amount).toBe(1200);
  });

  it('choose among a ticket own rules by priority and recency', () => {
    const p = pricer([
      rule(1000, { ticketID: 'a', createdAt: 1 }),
      rule(1100, { ticketID: 'a', createdAt: 2 }),
      rule(900, { ticketID: 'a', priority: 1, limitation: { resourceIDs: ['r2'] } }),
    ]);
    expect(p.quote(req({ a: 1 }), MON).amount).toBe(1100);
    expect(p.quote(req({ a: 1 }), { ...MON, resourceID: 'r2' }).amount).toBe(900);
  });

  it('list the service tickets priced by the fallback when they are given', () => {
    const p = pricer([adult, rule(1500)], [], { ticketIDs: ['adult', 'senior', 'student'] });
    expect(p.quote(req({}), MON).ticketPrices).toEqual({ adult: money(2000, 2500), senior: money(1500), student: money(1500) });
    const noFallback = pricer([adult], [], { ticketIDs: ['adult', 'senior'] });
    expect(noFallback.quote(req({}), MON).ticketPrices).toEqual({ adult: money(2000, 2500) });
  });

  it('make a requested ticket without any rule free', () => {
    expect(pricer([adult]).quote(req({ adult: 1, guest: 2 }), MON)).toMatchObject({
      amount: 2000,
      tickets: { adult: { spots: 1, price: 2000 }, guest: { spots: 2, price: 0, comparedPrice: 0 } },
    });
  });

  it('skip tickets requested zero times or with a nonsensical count', () => {
    const q = pricer([adult, child]).quote(req({ adult: 0, child: 1, x: -1, y: 1.5 }), MON);
    expect(q.tickets).toEqual({ child: { spots: 1, price: 1000, comparedPrice: 1000 } });
    expect(q.amount).toBe(1000);
  });

  it('ignore price rules of other types', () => {
    expect(pricer([rule(5000, { type: 'group', ticketID: 'adult' }), child]).quote(req({ adult: 1, child: 1 }), MON).amount).toBe(1000);
  });

  it('have no step', () => {
    expect(pricer([rule(1, { durationSec: 3600 })]).step(MON)).toBeNull();
  });
});

describe('ticket discounts', () => {
  const adult = rule(2000, { ticketID: 'adult' });
  const child = rule(1000, { ticketID: 'child' });

  it('apply volume rules on the count of that ticket', () => {
    const p = pricer([adult, child], [discount({ rules: [{ from: 3, to: 10, price: 1500, ticketID: 'adult' }] })]);
    const q = p.quote(req({ adult: 3, child: 5 }), MON);
    expect(q.tickets).toEqual({
      adult: { spots: 3, price: 1500, comparedPrice: 2000 },
      child: { spots: 5, price: 1000, comparedPrice: 1000 },
    });
    expect(q).toMatchObject({ amount: 9500, comparedAmount: 11000 });
    // list prices stay undiscounted: the available-time entry has no counts
    expect(q.ticketPrices).toEqual({ adult: money(2000), child: money(1000) });
    expect(p.quote(req({ adult: 2 }), MON).amount).toBe(4000);
    expect(p.quote(req({ adult: 11 }), MON).amount).toBe(22000);
  });

  it('apply a rule without ticketID to every ticket, each on its own count', () => {
    const p = pricer([adult, child], [discount({ rules: [{ from: 2, to: 99, price: 900 }] })]);
    expect(p.quote(req({ adult: 2, child: 1 }), MON).tickets).toEqual({
      adult: { spots: 2, price: 900, comparedPrice: 2000 },
      child: { spots: 1, price: 1000, comparedPrice: 1000 },
    });
  });

  it('prefer the rule naming the ticket over a rule for any ticket', () => {
    const p = pricer(
      [adult],
      [
        discount({
          rules: [
            { from: 1, to: 99, price: 100 },
            { from: 1, to: 99, price: 1800, ticketID: 'adult' },
          ],
        }),
      ],
    );
    expect(p.quote(req({ adult: 1 }), MON).amount).toBe(1800);
  });

  it('choose the discount per ticket: each ticket takes the first discount covering its count', () => {
    const p = pricer(
      [adult, child],
      [
        discount({ priority: 5, rules: [{ from: 1, to: 99, price: 1000, ticketID: 'adult' }] }),
        discount({
          priority: 1,
          rules: [
            { from: 1, to: 99, price: 500, ticketID: 'child' },
            { from: 1, to: 99, price: 1, ticketID: 'adult' },
          ],
        }),
      ],
    );
    expect(p.quote(req({ adult: 1, child: 1 }), MON).tickets).toMatchObject({ adult: { price: 1000 }, child: { price: 500 } });
  });

  it('sum up reductions per ticket only when the chosen discount sums up', () => {
    const summing = [
      discount({ priority: 2, sumsUp: true, rules: [{ from: 2, to: 99, price: 1800, ticketID: 'adult' }] }),
      discount({ priority: 1, sumsUp: true, rules: [{ from: 1, to: 99, price: 1900 }] }),
    ];
    expect(pricer([adult, child], summing).quote(req({ adult: 2, child: 1 }), MON).tickets).toEqual({
      adult: { spots: 2, price: 1700, comparedPrice: 2000 },
      // only the second discount covers the child ticket, and 1900 is above its price: no reduction
      child: { spots: 1, price: 1000, comparedPrice: 1000 },
    });
    const notSumming = [{ ...summing[0], sumsUp: false }, summing[1]];
    expect(pricer([adult], notSumming).quote(req({ adult: 2 }), MON).amount).toBe(3600);
  });

  it('respect the discount limitation', () => {
    const p = pricer([adult], [discount({ rules: [{ from: 1, to: 99, price: 1000 }], limitation: { daysOfWeek: 3 } })]);
    expect(p.quote(req({ adult: 1 }), SAT).amount).toBe(1000);
    expect(p.quote(req({ adult: 1 }), MON).amount).toBe(2000);
  });

  it('never drop a unit price below zero', () => {
    const p = pricer(
      [adult],
      [
        discount({ priority: 1, sumsUp: true, rules: [{ from: 1, to: 99, price: 500 }] }),
        discount({ priority: 0, sumsUp: true, rules: [{ from: 1, to: 99, price: 0 }] }),
      ],
    );
    expect(p.quote(req({ adult: 2 }), MON)).toMatchObject({
      amount: 0,
      comparedAmount: 4000,
      tickets: { adult: { spots: 2, price: 0, comparedPrice: 2000 } },
    });
  });

  it('ignore spots discounts', () => {
    expect(
      pricer([adult], [discount({ type: 'spots', rules: [{ from: 1, to: 99, price: 1 }] })]).quote(req({ adult: 1 }), MON).amount,
    ).toBe(2000);
  });
});
