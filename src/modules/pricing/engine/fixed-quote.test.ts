import { matchContextAt } from './context';
import { createPricer } from './pricer';
import type { DiscountInput, PriceRuleInput, QuoteRequest } from './types';
import type { LimitationInput } from '../../../shared/limitation';
import type { ServiceType } from '../../../shared/service-type';

const ZONE = 'Europe/Riga';
const HOUR = 3600;

let seq = 0;
const rule = (type: ServiceType, price: number, limitation: LimitationInput | null = null, priority = 0): PriceRuleInput => ({
  id: `p${++seq}`,
  type,
  priority,
  createdAt: seq,
  durationSec: type === 'fixed' || type === 'group' ? null : HOUR,
  minDurationSec: null,
  maxDurationSec: null,
  price,
  comparedPrice: price + 100,
  ticketID: null,
  limitation,
});
const spots = (limitation: LimitationInput | null): DiscountInput => ({
  id: `d${++seq}`,
  type: 'spots',
  priority: 0,
  createdAt: seq,
  sumsUp: false,
  rules: [{ from: 2, to: 10, price: 300 }],
  limitation,
});
const EVENING: LimitationInput = { times: [{ start: '18:00', end: '24:00' }] };
const R2: LimitationInput = { resourceIDs: ['r2'] };

/** Starts every 50 minutes over two weeks, on two resources. */
const contexts = Array.from({ length: 400 }, (_, i) =>
  matchContextAt(ZONE, Date.parse('2026-03-23T00:00:00Z') + i * 50 * 60_000, i % 3 ? 'r1' : 'r2'),
);

describe('a quote that no start changes', () => {
  it.each([
    ['fixed', [], []],
    ['fixed', [rule('fixed', 2500)], []],
    ['fixed', [rule('fixed', 2500, EVENING), rule('fixed', 4000, null, 1)], []],
    ['flexible', [rule('flexible', 1000), rule('flexible', 900, EVENING, -1)], []],
    ['sharable', [rule('sharable', 1000, { daysOfWeek: 127 })], []],
    ['group', [rule('group', 500)], [spots(null)]],
  ] as [ServiceType, PriceRuleInput[], DiscountInput[]][])(
    '%s %#: is offered and equals the quote at every start',
    (type, priceRules, discounts) => {
      const p = createPricer({ serviceType: type, currency: 'EUR', zone: ZONE, priceRules, discounts });
      for (const durationSec of [HOUR, 2.5 * HOUR]) {
        const req: QuoteRequest = { serviceType: type, durationSec, spots: 3, tickets: {} };
        const fixed = p.fixedQuote!(req);
        expect(fixed).not.toBeNull();
        for (const ctx of contexts) expect(p.quote(req, ctx)).toEqual(fixed);
      }
    },
  );

  it.each([
    ['fixed', [rule('fixed', 2500, EVENING)], []],
    ['fixed', [rule('fixed', 2500, R2), rule('fixed', 4000, null, -1)], []],
    ['flexible', [rule('flexible', 1000, { dates: [{ start: '2026-03-25', end: '2026-03-26' }] })], []],
    ['group', [rule('group', 500)], [spots(EVENING)]],
    ['ticket', [rule('ticket', 500)], []],
  ] as [ServiceType, PriceRuleInput[], DiscountInput[]][])(
    '%s %#: is not offered when a rule or discount depends on the start',
    (type, priceRules, discounts) => {
      const p = createPricer({ serviceType: type, currency: 'EUR', zone: ZONE, priceRules, discounts });
      expect(p.fixedQuote?.({ serviceType: type, durationSec: HOUR, spots: 3, tickets: {} }) ?? null).toBeNull();
    },
  );

  it('refuses another service type, as the quote does', () => {
    const p = createPricer({ serviceType: 'fixed', currency: 'EUR', zone: ZONE, priceRules: [], discounts: [] });
    expect(() => p.fixedQuote!({ serviceType: 'flexible', durationSec: HOUR, spots: 1, tickets: {} })).toThrow(RangeError);
  });
});
