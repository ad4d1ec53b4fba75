import { DomainError } from '../../shared/errors';
import {
  canMoveContract,
  canMoveUsage,
  CONTRACT_STATUSES,
  effectiveStatus,
  statusAfterBalance,
  transitionContract,
  transitionUsage,
  USAGE_STATUSES,
} from './giftcard.status';

describe('gift card contract status', () => {
  it('allows exactly the moves of the lifecycle', () => {
    const moves = CONTRACT_STATUSES.flatMap((from) =>
      CONTRACT_STATUSES.filter((to) => canMoveContract(from, to)).map((to) => `${from}->${to}`),
    );
    expect(moves).toEqual([
      'pending_payment->active',
      'pending_payment->cancelled',
      'active->redeemed',
      'active->expired',
      'active->cancelled',
      'redeemed->active',
      'redeemed->expired',
    ]);
  });

  it('refuses other moves with 409', () => {
    expect(() => transitionContract('cancelled', 'active')).toThrow(DomainError);
    expect(() => transitionContract('expired', 'active')).toThrow(DomainError);
    expect(() => transitionContract('active', 'pending_payment')).toThrow(DomainError);
    expect(transitionContract('pending_payment', 'active')).toBe('active');
  });

  it('redeems an active card at zero and reactivates a redeemed card with money again', () => {
    expect(statusAfterBalance('active', 0)).toBe('redeemed');
    expect(statusAfterBalance('active', 1)).toBe('active');
    expect(statusAfterBalance('redeemed', 5)).toBe('active');
    expect(statusAfterBalance('redeemed', 0)).toBe('redeemed');
    expect(statusAfterBalance('expired', 5)).toBe('expired');
    expect(statusAfterBalance('cancelled', 0)).toBe('cancelled');
  });

  it('shows an active card past its validity as expired (the end is exclusive)', () => {
    const end = new Date('2027-01-01T00:00:00Z');
    expect(effectiveStatus('active', end, new Date('2026-12-31T23:59:59Z'))).toBe('active');
    expect(effectiveStatus('active', end, end)).toBe('expired');
    expect(effectiveStatus('active', null, new Date('2999-01-01T00:00:00Z'))).toBe('active');
    expect(effectiveStatus('redeemed', end, new Date('2028-01-01T00:00:00Z'))).toBe('redeemed');
    expect(effectiveStatus('pending_payment', end, new Date('2028-01-01T00:00:00Z'))).toBe('pending_payment');
  });
});

describe('gift card usage status', () => {
  it('moves between used and cancelled', () => {
    expect(USAGE_STATUSES.flatMap((f) => USAGE_STATUSES.filter((t) => canMoveUsage(f, t)).map((t) => `${f}->${t}`))).toEqual([
      'used->cancelled',
      'cancelled->used',
    ]);
    expect(transitionUsage('used', 'used')).toBe('used');
  });
});
