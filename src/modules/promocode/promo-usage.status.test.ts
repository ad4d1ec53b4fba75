import { DomainError } from '../../shared/errors';
import { canTransitionUsage, countsAsUsage, PROMO_USAGE_STATUSES, transitionUsage, usageStatusesBefore } from './promo-usage.status';

describe('promo usage status', () => {
  it('moves reserved -> used -> released and reserved -> released only', () => {
    const allowed = PROMO_USAGE_STATUSES.flatMap((from) =>
      PROMO_USAGE_STATUSES.filter((to) => canTransitionUsage(from, to)).map((to) => `${from}->${to}`),
    );
    expect(allowed).toEqual(['reserved->used', 'reserved->released', 'used->released']);
  });

  it('refuses every other move with 409', () => {
    for (const [from, to] of [
      ['released', 'used'],
      ['released', 'reserved'],
      ['used', 'reserved'],
    ] as const) {
      expect(() => transitionUsage(from, to)).toThrow(DomainError);
    }
    expect(transitionUsage('reserved', 'used')).toBe('used');
  });

  it('counts reserved and used usages against the limits, not released ones', () => {
    expect(PROMO_USAGE_STATUSES.filter(countsAsUsage)).toEqual(['reserved', 'used']);
    expect(usageStatusesBefore('released')).toEqual(['reserved', 'used']);
    expect(usageStatusesBefore('used')).toEqual(['reserved']);
  });
});
