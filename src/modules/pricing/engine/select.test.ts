import { compareRank, createRuleChooser, type RankedRule } from './select';
import type { MatchContext } from './types';

const ctx = (resourceID = 'r1', weekday = 1): MatchContext => ({ resourceID, instant: 0, date: '2026-03-02', weekday, minuteOfDay: 600 });

const rule = (id: string, priority: number, createdAt: number, limitation: RankedRule['limitation'] = null): RankedRule => ({
  id,
  priority,
  createdAt,
  limitation,
});

describe('compareRank', () => {
  it('orders by priority, then newest, then larger id', () => {
    const rules = [rule('a', 1, 100), rule('b', 5, 100), rule('c', 5, 300), rule('e', 5, 300), rule('d', -2, 900), rule('f', 1, 100)];
    expect([...rules].sort(compareRank).map((r) => r.id)).toEqual(['e', 'c', 'b', 'f', 'a', 'd']);
  });
  it('compares ids by code unit, not by locale', () => {
    expect([rule('B', 0, 0), rule('a', 0, 0)].sort(compareRank).map((r) => r.id)).toEqual(['a', 'B']);
  });
});

describe('RuleChooser', () => {
  it('chooses the highest priority rule that applies', () => {
    const chooser = createRuleChooser([rule('low', 1, 10), rule('high', 10, 5, { resourceIDs: ['r2'] })], 'UTC');
    expect(chooser.choose(ctx('r2'))?.id).toBe('high');
    expect(chooser.choose(ctx('r1'))?.id).toBe('low');
  });

  it('resolves a priority tie to the newest rule', () => {
    const chooser = createRuleChooser([rule('old', 3, 1000), rule('new', 3, 2000), rule('older', 3, 10)], 'UTC');
    expect(chooser.choose(ctx())?.id).toBe('new');
  });

  it('resolves a tie in priority and creation time to the larger id', () => {
    const chooser = createRuleChooser([rule('0190a', 3, 1000), rule('0190b', 3, 1000)], 'UTC');
    expect(chooser.choose(ctx())?.id).toBe('0190b');
  });

  it('falls through to older or lower rules when the newer one is limited elsewhere', () => {
    const chooser = createRuleChooser([rule('weekend', 3, 2000, { daysOfWeek: 3 }), rule('any', 3, 1000)], 'UTC');
    expect(chooser.choose(ctx('r1', 1))?.id).toBe('any');
    expect(chooser.choose(ctx('r1', 7))?.id).toBe('weekend');
  });

  it('answers undefined when nothing applies or there are no rules', () => {
    expect(createRuleChooser([rule('x', 1, 1, { resourceIDs: ['r9'] })], 'UTC').choose(ctx())).toBeUndefined();
    expect(createRuleChooser([], 'UTC').choose(ctx())).toBeUndefined();
  });

  it('does not depend on the input order and leaves the input alone', () => {
    const input = [rule('a', 1, 1), rule('b', 2, 1), rule('c', 2, 5), rule('d', 0, 9)];
    const before = input.map((r) => r.id);
    const orders = [input, [...input].reverse(), [input[2], input[0], input[3], input[1]]];
    for (const o of orders) expect(createRuleChooser(o, 'UTC').rules.map((r) => r.id)).toEqual(['c', 'b', 'a', 'd']);
    expect(input.map((r) => r.id)).toEqual(before);
  });

  it('lists every applicable rule in choice order', () => {
    const chooser = createRuleChooser([rule('a', 1, 1), rule('b', 2, 1, { resourceIDs: ['r2'] }), rule('c', 3, 1)], 'UTC');
    expect(chooser.applicable(ctx('r1')).map((r) => r.id)).toEqual(['c', 'a']);
    expect(chooser.applicable(ctx('r2')).map((r) => r.id)).toEqual(['c', 'b', 'a']);
    expect(chooser.size).toBe(3);
  });

  it('chooses among the rules a predicate admits', () => {
    const chooser = createRuleChooser([rule('a', 1, 1), rule('b', 2, 1), rule('c', 3, 1, { resourceIDs: ['r2'] })], 'UTC');
    expect(chooser.chooseWhere(ctx('r1'), (r) => r.id !== 'b')?.id).toBe('a');
    expect(chooser.chooseWhere(ctx('r2'), (r) => r.id !== 'b')?.id).toBe('c');
    expect(chooser.chooseWhere(ctx('r1'), () => false)).toBeUndefined();
  });
});
