import { DomainError } from '../../shared/errors';
import {
  canApply,
  CONTRACT_EVENTS,
  CONTRACT_STATUSES,
  dueEvent,
  dueSql,
  EFFECTIVE_STATUS_SQL,
  effectiveStatus,
  effectiveStatusParams,
  ended,
  fromStatuses,
  fromStatusesSql,
  GIVEN_UP,
  merchantEvent,
  nextContractStatus,
  RUNNING,
  targetSql,
  transitionContract,
  type ContractEvent,
  type ContractStatus,
} from './subscription.status';

const expect409 = (fn: () => unknown) => {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('conflict');
  expect((error as DomainError).status).toBe(409);
};

describe('subscription contract status transitions', () => {
  const allowed: [ContractStatus, ContractEvent, ContractStatus][] = [
    ['pending_payment', 'pay', 'active'],
    ['pending_payment', 'activate', 'active'],
    ['pending_payment', 'fail_payment', 'cancelled'],
    ['pending_payment', 'lapse', 'cancelled'],
    ['pending_payment', 'remove', 'cancelled'],
    ['pending_payment', 'cancel', 'cancelled'],
    ['active', 'cancel', 'cancelled'],
    ['active', 'expire', 'expired'],
    ['active', 'renew', 'active'],
    ['expired', 'renew', 'active'],
  ];

  it.each(allowed)('%s --%s--> %s', (from, event, to) => {
    expect(nextContractStatus(from, event)).toBe(to);
    expect(canApply(from, event)).toBe(true);
    expect(transitionContract(from, event)).toBe(to);
  });

  const allowedKeys = new Set(allowed.map(([from, event]) => `${from}:${event}`));
  const refused = CONTRACT_STATUSES.flatMap((s) => CONTRACT_EVENTS.map((e) => [s, e] as const)).filter(
    ([s, e]) => !allowedKeys.has(`${s}:${e}`),
  );

  it('covers every pair of status and event', () => {
    expect(allowed.length + refused.length).toBe(CONTRACT_STATUSES.length * CONTRACT_EVENTS.length);
  });

  it.each(refused)('refuses %s --%s--> with a 409 conflict', (from, event) => {
    expect(nextContractStatus(from, event)).toBeNull();
    expect(canApply(from, event)).toBe(false);
    expect409(() => transitionContract(from, event));
  });

  it('has cancelled as the only final status; an expired contract comes back only through a paid renewal', () => {
    expect(CONTRACT_EVENTS.filter((e) => canApply('cancelled', e))).toEqual([]);
    expect(CONTRACT_EVENTS.filter((e) => canApply('expired', e))).toEqual(['renew']);
    // nothing leads back to pending_payment
    for (const s of CONTRACT_STATUSES) for (const e of CONTRACT_EVENTS) expect(nextContractStatus(s, e)).not.toBe('pending_payment');
  });

  it('names the statuses each event is allowed from, for SQL that changes many rows', () => {
    expect(Object.fromEntries(CONTRACT_EVENTS.map((e) => [e, fromStatuses(e)]))).toEqual({
      pay: ['pending_payment'],
      activate: ['pending_payment'],
      fail_payment: ['pending_payment'],
      lapse: ['pending_payment'],
      remove: ['pending_payment'],
      cancel: ['pending_payment', 'active'],
      expire: ['active'],
      renew: ['active', 'expired'],
    });
    expect(fromStatusesSql('lapse')).toBe(`status in ('pending_payment')`);
    expect(fromStatusesSql('cancel', 'o.status')).toBe(`o.status in ('pending_payment', 'active')`);
    expect(targetSql('lapse')).toBe(`'cancelled'`);
    expect(targetSql('renew')).toBe(`'active'`);
    expect(targetSql('cancel', 'o.status')).toBe(`'cancelled'`);
  });
});

describe('merchant status changes', () => {
  const moves: Record<ContractStatus, Partial<Record<ContractStatus, ContractEvent>>> = {
    pending_payment: { active: 'activate', cancelled: 'cancel' },
    active: { cancelled: 'cancel', expired: 'expire' },
    expired: {},
    cancelled: {},
  };

  const pairs = CONTRACT_STATUSES.flatMap((from) => CONTRACT_STATUSES.map((to) => [from, to] as const));

  it.each(pairs)('%s -> %s', (from, to) => {
    if (from === to) expect(merchantEvent(from, to)).toBeNull();
    else if (moves[from][to]) {
      expect(merchantEvent(from, to)).toBe(moves[from][to]);
      expect(transitionContract(from, moves[from][to])).toBe(to);
    } else expect409(() => merchantEvent(from, to));
  });

  it('names the refused move in the details', () => {
    try {
      merchantEvent('expired', 'active');
      throw new Error('not refused');
    } catch (e) {
      expect((e as DomainError).details).toEqual([{ path: 'status', message: 'cannot go from expired to active' }]);
    }
  });
});

describe('status groups', () => {
  it('runs active contracts, ends expired and cancelled ones, gives up cancelled ones', () => {
    expect(RUNNING).toEqual(['active']);
    expect(CONTRACT_STATUSES.filter(ended)).toEqual(['expired', 'cancelled']);
    expect(GIVEN_UP).toEqual(['cancelled']);
    // a given-up contract cannot be paid for any more
    for (const s of GIVEN_UP) expect(canApply(s, 'pay') || canApply(s, 'renew')).toBe(false);
  });
});

describe('effective status: the due time-driven event applied', () => {
  const end = new Date('2026-02-01T00:00:00Z');
  const before = new Date(end.getTime() - 1);

  it('shows a contract past its end as expired and a lapsed unpaid one as cancelled, at the boundary', () => {
    expect(effectiveStatus({ status: 'active', expiresAt: end, pendingExpiresAt: null }, before)).toBe('active');
    expect(effectiveStatus({ status: 'active', expiresAt: end, pendingExpiresAt: null }, end)).toBe('expired');
    expect(effectiveStatus({ status: 'pending_payment', expiresAt: null, pendingExpiresAt: end }, before)).toBe('pending_payment');
    expect(effectiveStatus({ status: 'pending_payment', expiresAt: null, pendingExpiresAt: end }, end)).toBe('cancelled');
    expect(effectiveStatus({ status: 'pending_payment', expiresAt: null, pendingExpiresAt: null }, end)).toBe('pending_payment');
    expect(effectiveStatus({ status: 'cancelled', expiresAt: end, pendingExpiresAt: null }, before)).toBe('cancelled');
    expect(effectiveStatus({ status: 'active', expiresAt: null, pendingExpiresAt: null }, new Date('2999-01-01T00:00:00Z'))).toBe('active');
  });

  it('takes each deadline only for the status its event is allowed from', () => {
    // an unpaid contract's expiresAt is its payment deadline too: only the lapse applies
    expect(dueEvent({ status: 'pending_payment', expiresAt: end, pendingExpiresAt: end }, end)).toBe('lapse');
    expect(dueEvent({ status: 'active', expiresAt: end, pendingExpiresAt: end }, end)).toBe('expire');
    expect(dueEvent({ status: 'expired', expiresAt: end, pendingExpiresAt: end }, end)).toBeNull();
    expect(dueEvent({ status: 'cancelled', expiresAt: end, pendingExpiresAt: end }, end)).toBeNull();
    for (const status of CONTRACT_STATUSES) {
      const c = { status, expiresAt: end, pendingExpiresAt: end };
      const event = dueEvent(c, end);
      expect(effectiveStatus(c, end)).toBe(event ? nextContractStatus(status, event) : status);
    }
  });

  it('says the same in SQL, one `now` per time-driven event', () => {
    expect(dueSql('lapse')).toBe(
      `status in ('pending_payment') and pending_expires_at is not null and pending_expires_at <= ?::timestamptz`,
    );
    expect(dueSql('expire')).toBe(`status in ('active') and expires_at is not null and expires_at <= ?::timestamptz`);
    expect(EFFECTIVE_STATUS_SQL.split('?').length - 1).toBe(effectiveStatusParams('now').length);
    expect(EFFECTIVE_STATUS_SQL).toBe(
      `(case when ${dueSql('lapse')} then 'cancelled' when ${dueSql('expire')} then 'expired' else status end)`,
    );
  });
});
