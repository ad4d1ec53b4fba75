import { matchContextAt } from './context';
import { createPricer, validateFlexibleDuration } from './pricer';
import type { DiscountInput, PriceRuleInput, QuoteRequest } from './types';
import type { ServiceType } from '../../../shared/service-type';

const ZONE = 'Europe/Riga';
const HOUR = 3600;
const DAY = 86_400;
// Monday 2 March 2026, 10:00 in Riga; Saturday 7 March 2026, 10:00 in Riga
const MON = matchContextAt(ZONE, Date.parse('2026-03-02T08:00:00Z'), 'r1');
const SAT = matchContextAt(ZONE, Date.parse('2026-03-07T08:00:00Z'), 'r1');

let seq = 0;
function priceRule(p: Partial<PriceRuleInput> & Pick<PriceRuleInput, 'type' | 'price'>): PriceRuleInput {
  seq += 1;
  return {
    id: `p${seq}`,
    priority: 0,
    createdAt: seq,
    durationSec: null,
    minDurationSec: null,
    maxDurationSec: null,
    comparedPrice: null,
    ticketID: null,
    limitation: null,
    ...p,
  };
}
function discount(p: Partial<DiscountInput> & Pick<DiscountInput, 'rules'>): DiscountInput {
  seq += 1;
  return { id: `d${seq}`, type: 'spots', priority: 0, createdAt: seq, sumsUp: false, limitation: null, ...p };
}
const req = (serviceType: ServiceType, p: Partial<QuoteRequest> = {}): QuoteRequest => ({
  serviceType,
  durationSec: HOUR,
  spots: 1,
  tickets: {},
  ...p,
});
const pricer = (serviceType: ServiceType, priceRules: PriceRuleInput[], discounts: DiscountInput[] = []) =>
  createPricer({ serviceType, currency: 'EUR', zone: ZONE, priceRules, discounts });

describe('fixed services', () => {
  it('charge the rule price, compared with the compared price when set', () => {
    expect(pricer('fixed', [priceRule({ type: 'fixed', price: 2500 })]).quote(req('fixed'), MON)).toEqual({
      amount: 2500,
      comparedAmount: 2500,
      currency: 'EUR',
    });
    expect(pricer('fixed', [priceRule({ type: 'fixed', price: 2000, comparedPrice: 2500 })]).quote(req('fixed'), MON)).toEqual({
      amount: 2000,
      comparedAmount: 2500,
      currency: 'EUR',
    });
  });
  it('are free when no rule applies', () => {
    expect(pricer('fixed', []).quote(req('fixed'), MON)).toEqual({ amount: 0, comparedAmount: 0, currency: 'EUR' });
    expect(
      pricer('fixed', [priceRule({ type: 'fixed', price: 100, limitation: { resourceIDs: ['r2'] } })]).quote(req('fixed'), MON).amount,
    ).toBe(0);
  });
  it('ignore price rules of other types', () => {
    const p = pricer('fixed', [priceRule({ type: 'flexible', price: 999, priority: 9 }), priceRule({ type: 'fixed', price: 100 })]);
    expect(p.quote(req('fixed'), MON).amount).toBe(100);
  });
  it('choose by priority, recency and limitation', () => {
    const p = pricer('fixed', [
      priceRule({ type: 'fixed', price: 100, createdAt: 1 }),
      priceRule({ type: 'fixed', price: 150, createdAt: 2 }),
      priceRule({ type: 'fixed', price: 200, priority: 5, limitation: { daysOfWeek: 3 } }),
      priceRule({ type: 'fixed', price: 300, priority: 5, createdAt: 0, limitation: { resourceIDs: ['r2'] } }),
    ]);
    expect(p.quote(req('fixed'), MON).amount).toBe(150);
    expect(p.quote(req('fixed'), SAT).amount).toBe(200);
    expect(p.quote(req('fixed'), { ...MON, resourceID: 'r2' }).amount).toBe(300);
    expect(p.quote(req('fixed'), { ...SAT, resourceID: 'r2' }).amount).toBe(200);
  });
  it('have no step', () => {
    expect(pricer('fixed', [priceRule({ type: 'fixed', price: 1, durationSec: HOUR })]).step(MON)).toBeNull();
  });
  it('refuse to quote another service type', () => {
    expect(() => pricer('fixed', []).quote(req('group'), MON)).toThrow(RangeError);
  });
});

describe.each(['flexible', 'sharable'] as const)('%s services', (type) => {
  const halfHourly = priceRule({ type, price: 500, comparedPrice: 600, durationSec: 1800, minDurationSec: HOUR, maxDurationSec: 4 * HOUR });
  it.each([
    [1800, 500, 600],
    [3600, 1000, 1200],
    [4200, 1500, 1800],
    [1, 500, 600],
    [0, 0, 0],
    [-60, 0, 0],
  ])('charge per started step: %i s -> %i', (durationSec, amount, comparedAmount) => {
    expect(pricer(type, [halfHourly]).quote(req(type, { durationSec }), MON)).toEqual({ amount, comparedAmount, currency: 'EUR' });
  });
  it('price the whole booking once when the rule has no step', () => {
    const p = pricer(type, [priceRule({ type, price: 4000 })]);
    expect(p.quote(req(type, { durationSec: 5 * HOUR }), MON).amount).toBe(4000);
    expect(p.quote(req(type, { durationSec: 0 }), MON).amount).toBe(4000);
  });
  it('compare with the undiscounted amount when there is no compared price', () => {
    expect(pricer(type, [priceRule({ type, price: 300, durationSec: HOUR })]).quote(req(type, { durationSec: 3 * HOUR }), MON)).toEqual({
      amount: 900,
      comparedAmount: 900,
      currency: 'EUR',
    });
  });
  it('report the step of the chosen rule', () => {
    const p = pricer(type, [halfHourly, priceRule({ type, price: 100, priority: 3, durationSec: HOUR, limitation: { daysOfWeek: 3 } })]);
    expect(p.step(MON)).toEqual({ durationSec: 1800, minDurationSec: HOUR, maxDurationSec: 4 * HOUR });
    expect(p.step(SAT)).toEqual({ durationSec: HOUR, minDurationSec: null, maxDurationSec: null });
  });
  it('report no step when the chosen rule has none, even if a lower one has', () => {
    const p = pricer(type, [halfHourly, priceRule({ type, price: 100, priority: 3 })]);
    expect(p.step(MON)).toBeNull();
    expect(pricer(type, []).step(MON)).toBeNull();
  });
  it('treat a zero step as no step', () => {
    const p = pricer(type, [priceRule({ type, price: 700, durationSec: 0 })]);
    expect(p.step(MON)).toBeNull();
    expect(p.quote(req(type, { durationSec: HOUR }), MON).amount).toBe(700);
  });
});

describe('days services', () => {
  it.each([
    [null, 3 * DAY, 3],
    [DAY, 3 * DAY, 3],
    [DAY, 36 * HOUR, 2],
    [7 * DAY, 10 * DAY, 2],
    [7 * DAY, 7 * DAY, 1],
    [null, 0, 0],
  ])('with step %p charge %i s as %i steps', (durationSec, booked, steps) => {
    const p = pricer('days', [priceRule({ type: 'days', price: 9000, comparedPrice: 10000, durationSec })]);
    expect(p.quote(req('days', { durationSec: booked }), MON)).toEqual({
      amount: 9000 * steps,
      comparedAmount: 10000 * steps,
      currency: 'EUR',
    });
  });
  it('report the step only when the rule has one', () => {
    expect(pricer('days', [priceRule({ type: 'days', price: 1, durationSec: DAY })]).step(MON)?.durationSec).toBe(DAY);
    expect(pricer('days', [priceRule({ type: 'days', price: 1 })]).step(MON)).toBeNull();
  });
});

describe('group services', () => {
  const base = priceRule({ type: 'group', price: 1000 });
  it('charge per spot', () => {
    expect(pricer('group', [base]).quote(req('group', { spots: 4 }), MON)).toEqual({ amount: 4000, comparedAmount: 4000, currency: 'EUR' });
    expect(pricer('group', [base]).quote(req('group', { spots: 0 }), MON).amount).toBe(0);
  });
  it('apply a volume discount only within its inclusive range', () => {
    const p = pricer('group', [base], [discount({ rules: [{ from: 5, to: 9, price: 800 }] })]);
    const amounts = [4, 5, 9, 10].map((spots) => p.quote(req('group', { spots }), MON));
    expect(amounts.map((q) => q.amount)).toEqual([4000, 4000, 7200, 10000]);
    expect(amounts.map((q) => q.comparedAmount)).toEqual([4000, 5000, 9000, 10000]);
  });
  it('compare a discounted amount with the compared price when the rule has one', () => {
    const p = pricer(
      'group',
      [priceRule({ type: 'group', price: 1000, comparedPrice: 1200 })],
      [discount({ rules: [{ from: 2, to: 99, price: 900 }] })],
    );
    expect(p.quote(req('group', { spots: 3 }), MON)).toEqual({ amount: 2700, comparedAmount: 3600, currency: 'EUR' });
  });
  it('let each tier win on its own range when tiers are separate discounts', () => {
    const p = pricer(
      'group',
      [base],
      [
        discount({ priority: 9, rules: [{ from: 10, to: 999, price: 700 }] }),
        discount({ priority: 1, rules: [{ from: 5, to: 9, price: 900 }] }),
      ],
    );
    expect(p.quote(req('group', { spots: 6 }), MON).amount).toBe(5400);
    expect(p.quote(req('group', { spots: 10 }), MON).amount).toBe(7000);
  });
  it('choose a single discount by priority and recency when none sums up', () => {
    const p = pricer(
      'group',
      [base],
      [
        discount({ priority: 1, createdAt: 1, rules: [{ from: 1, to: 99, price: 900 }] }),
        discount({ priority: 1, createdAt: 2, rules: [{ from: 1, to: 99, price: 950 }] }),
        discount({ priority: 0, createdAt: 3, rules: [{ from: 1, to: 99, price: 100 }] }),
      ],
    );
    expect(p.quote(req('group', { spots: 2 }), MON).amount).toBe(1900);
  });
  it('respect a discount limitation', () => {
    const p = pricer('group', [base], [discount({ rules: [{ from: 1, to: 99, price: 500 }], limitation: { daysOfWeek: 3 } })]);
    expect(p.quote(req('group', { spots: 2 }), MON).amount).toBe(2000);
    expect(p.quote(req('group', { spots: 2 }), SAT).amount).toBe(1000);
  });
  it('add the reductions of other summing discounts when the chosen one sums up', () => {
    const p = pricer(
      'group',
      [base],
      [
        discount({ priority: 3, sumsUp: true, rules: [{ from: 2, to: 99, price: 900 }] }),
        discount({ priority: 2, sumsUp: true, rules: [{ from: 1, to: 99, price: 800 }] }),
        discount({ priority: 1, sumsUp: false, rules: [{ from: 1, to: 99, price: 100 }] }),
        discount({ priority: 0, sumsUp: true, rules: [{ from: 50, to: 99, price: 0 }] }),
      ],
    );
    // 1000 - (100 + 200): the non-summing and the out-of-range discounts add nothing
    expect(p.quote(req('group', { spots: 2 }), MON)).toEqual({ amount: 1400, comparedAmount: 2000, currency: 'EUR' });
    // at 1 spot the first is out of range; the second is chosen and the last is out of range
    expect(p.quote(req('group', { spots: 1 }), MON).amount).toBe(800);
  });
  it('add nothing when the chosen discount does not sum up', () => {
    const p = pricer(
      'group',
      [base],
      [
        discount({ priority: 3, sumsUp: false, rules: [{ from: 1, to: 99, price: 900 }] }),
        discount({ priority: 2, sumsUp: true, rules: [{ from: 1, to: 99, price: 800 }] }),
      ],
    );
    expect(p.quote(req('group', { spots: 2 }), MON).amount).toBe(1800);
  });
  it('skip summing discounts whose limitation does not match', () => {
    const p = pricer(
      'group',
      [base],
      [
        discount({ priority: 3, sumsUp: true, rules: [{ from: 1, to: 99, price: 900 }] }),
        discount({ priority: 2, sumsUp: true, rules: [{ from: 1, to: 99, price: 800 }], limitation: { resourceIDs: ['r2'] } }),
      ],
    );
    expect(p.quote(req('group', { spots: 1 }), MON).amount).toBe(900);
    expect(p.quote(req('group', { spots: 1 }), { ...MON, resourceID: 'r2' }).amount).toBe(700);
  });
  it('never go below zero nor raise the price', () => {
    const summed = pricer(
      'group',
      [base],
      [
        discount({ priority: 2, sumsUp: true, rules: [{ from: 1, to: 99, price: 300 }] }),
        discount({ priority: 1, sumsUp: true, rules: [{ from: 1, to: 99, price: 200 }] }),
      ],
    );
    expect(summed.quote(req('group', { spots: 3 }), MON).amount).toBe(0);
    const dearer = pricer('group', [base], [discount({ rules: [{ from: 1, to: 99, price: 1500 }] })]);
    expect(dearer.quote(req('group', { spots: 2 }), MON).amount).toBe(2000);
  });
  it('ignore ticket discounts and discounts on non-group services', () => {
    expect(
      pricer('group', [base], [discount({ type: 'ticket', rules: [{ from: 1, to: 9, price: 1 }] })]).quote(req('group', { spots: 2 }), MON)
        .amount,
    ).toBe(2000);
    const fixed = pricer('fixed', [priceRule({ type: 'fixed', price: 1000 })], [discount({ rules: [{ from: 1, to: 9, price: 1 }] })]);
    expect(fixed.quote(req('fixed'), MON).amount).toBe(1000);
  });
});

describe('validateFlexibleDuration', () => {
  const step = { durationSec: 1800, minDurationSec: HOUR, maxDurationSec: 3 * HOUR };
  it.each([HOUR, 5400, 3 * HOUR])('accepts %i s', (d) => expect(validateFlexibleDuration(step, d)).toBeNull());
  it.each([
    [null, HOUR, 'no flexible pricing is configured for this time'],
    [{ durationSec: 0, minDurationSec: null, maxDurationSec: null }, HOUR, 'no flexible pricing is configured for this time'],
    [step, 0, 'duration must be positive'],
    [step, -1800, 'duration must be positive'],
    [step, 1800.5, 'duration must be positive'],
    [step, 4000, 'duration must be a whole multiple of PT30M'],
    [step, 1800, 'duration must be at least PT1H'],
    [step, 4 * HOUR, 'duration must be at most PT3H'],
  ])('with step %p refuses %p: %s', (s, d, message) => expect(validateFlexibleDuration(s, d)).toBe(message));
  it('puts no bounds when min and max are unset', () => {
    const open = { durationSec: 900, minDurationSec: null, maxDurationSec: null };
    expect(validateFlexibleDuration(open, 900)).toBeNull();
    expect(validateFlexibleDuration(open, 900 * 1000)).toBeNull();
  });
});

describe('process time zone', () => {
  it('prices a day of half-hour starts the same whatever the process zone', () => {
    const p = pricer('flexible', [
      priceRule({ type: 'flexible', price: 1000, durationSec: HOUR }),
      priceRule({
        type: 'flexible',
        price: 1500,
        durationSec: HOUR,
        priority: 1,
        limitation: { times: [{ start: '18:00', end: '24:00' }] },
      }),
      priceRule({
        type: 'flexible',
        price: 500,
        durationSec: HOUR,
        priority: 2,
        limitation: { dates: [{ start: '2026-03-29', end: '2026-03-29' }] },
      }),
    ]);
    const from = Date.parse('2026-03-28T12:00:00Z');
    const totals: number[] = [];
    for (let t = from; t < from + DAY; t += 1800_000)
      totals.push(p.quote(req('flexible', { durationSec: 2 * HOUR }), matchContextAt(ZONE, t, 'r1')).amount);
    // 12:00Z is 14:00 in Riga (UTC+2): 8 starts at the day price, 12 in the evening, then 29 March
    expect(totals.slice(0, 8).every((a) => a === 2000)).toBe(true);
    expect(totals.slice(8, 20).every((a) => a === 3000)).toBe(true);
    expect(totals.slice(20).every((a) => a === 1000)).toBe(true);
  });
});
