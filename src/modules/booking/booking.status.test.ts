import { DomainError } from '../../shared/errors';
import {
  BOOKING_STATUSES,
  canTransition,
  codeEventOf,
  givenUp,
  holds,
  isBookingStatus,
  transition,
  type BookingStatus,
} from './booking.status';

const ALLOWED: [BookingStatus, BookingStatus][] = [
  ['pending', 'confirmed'],
  ['pending', 'rejected'],
  ['pending', 'failed'],
  ['pending', 'cancelled'],
  ['confirmed', 'cancelled'],
  ['confirmed', 'finished'],
  ['confirmed', 'no_show'],
  ['finished', 'no_show'],
  ['no_show', 'finished'],
];

const key = (from: string, to: string) => `${from}->${to}`;
const allowed = new Set(ALLOWED.map(([f, t]) => key(f, t)));
const everyPair = BOOKING_STATUSES.flatMap((from) => BOOKING_STATUSES.map((to) => [from, to] as [BookingStatus, BookingStatus]));

describe('booking status transitions', () => {
  it.each(ALLOWED)('%s -> %s is allowed', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    const t = transition(from, to);
    expect(t).toEqual({ from, to, releases: holds(from) && !holds(to) });
  });

  it.each(everyPair.filter(([f, t]) => !allowed.has(key(f, t))))('%s -> %s is a 409 conflict', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    let err: unknown;
    try {
      transition(from, to);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('conflict');
    expect((err as DomainError).status).toBe(409);
    expect((err as DomainError).message).toBe(`a ${from} booking cannot become ${to}`);
  });

  it('covers all 49 pairs: 9 allowed, 40 refused', () => {
    expect(everyPair).toHaveLength(49);
    expect(everyPair.filter(([f, t]) => canTransition(f, t))).toHaveLength(9);
  });

  it('only pending and confirmed hold time and capacity', () => {
    expect(BOOKING_STATUSES.filter(holds)).toEqual(['pending', 'confirmed']);
  });

  it('releases exactly when a holding status becomes a non-holding one', () => {
    expect(transition('pending', 'confirmed').releases).toBe(false);
    expect(transition('pending', 'cancelled').releases).toBe(true);
    expect(transition('pending', 'rejected').releases).toBe(true);
    expect(transition('pending', 'failed').releases).toBe(true);
    expect(transition('confirmed', 'cancelled').releases).toBe(true);
    expect(transition('confirmed', 'finished').releases).toBe(true);
    expect(transition('confirmed', 'no_show').releases).toBe(true);
    expect(transition('finished', 'no_show').releases).toBe(false);
    expect(transition('no_show', 'finished').releases).toBe(false);
  });

  it('recognises status names', () => {
    for (const s of BOOKING_STATUSES) expect(isBookingStatus(s)).toBe(true);
    for (const v of ['', 'CONFIRMED', 'done', null, 1, undefined]) expect(isBookingStatus(v)).toBe(false);
  });
});

describe('what codes learn from a booking status change', () => {
  it.each([
    [null, 'confirmed', 'confirmed'],
    [null, 'pending', null],
    ['pending', 'confirmed', 'confirmed'],
    ['pending', 'failed', 'released'],
    ['pending', 'cancelled', 'released'],
    ['pending', 'rejected', 'released'],
    ['confirmed', 'cancelled', 'released'],
    ['confirmed', 'finished', null],
    ['confirmed', 'no_show', null],
    ['finished', 'no_show', null],
  ] as [BookingStatus | null, BookingStatus, string | null][])('%s -> %s: %s', (from, to, event) => {
    expect(codeEventOf(from, to)).toBe(event);
  });
});

describe('bookings given up (their pending payment is no longer wanted)', () => {
  it('are the cancelled, rejected and failed ones', () => {
    expect(BOOKING_STATUSES.filter(givenUp)).toEqual(['cancelled', 'rejected', 'failed']);
  });

  it('never hold their time', () => {
    for (const s of BOOKING_STATUSES.filter(givenUp)) expect(holds(s)).toBe(false);
  });
});
