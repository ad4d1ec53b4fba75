import { bookingEventTypes, statusEventTypes, type BookingState } from './booking.events';
import { BOOKING_STATUSES } from './booking.status';

const T = (iso: string) => new Date(iso);
const base: BookingState = {
  status: 'confirmed',
  resourceId: 'r1',
  startTime: T('2031-01-01T09:00:00Z'),
  endTime: T('2031-01-01T10:00:00Z'),
};

describe('booking events', () => {
  it('a new booking is booking.created whatever its status', () => {
    for (const status of BOOKING_STATUSES) expect(bookingEventTypes(null, { ...base, status })).toEqual(['booking.created']);
  });
  it('a status change is the event of the new status; pending has none', () => {
    expect(statusEventTypes('pending', 'confirmed')).toEqual(['booking.confirmed']);
    expect(statusEventTypes('confirmed', 'cancelled')).toEqual(['booking.cancelled']);
    expect(statusEventTypes('pending', 'rejected')).toEqual(['booking.rejected']);
    expect(statusEventTypes('pending', 'failed')).toEqual(['booking.failed']);
    expect(statusEventTypes('confirmed', 'finished')).toEqual(['booking.finished']);
    expect(statusEventTypes('finished', 'no_show')).toEqual(['booking.no_show']);
    expect(statusEventTypes('confirmed', 'pending')).toEqual([]);
    expect(statusEventTypes('confirmed', 'confirmed')).toEqual([]);
  });
  it('a new start, end or resource of a booking that holds its time is booking.moved', () => {
    expect(bookingEventTypes(base, { ...base, startTime: T('2031-01-01T11:00:00Z'), endTime: T('2031-01-01T12:00:00Z') })).toEqual([
      'booking.moved',
    ]);
    expect(bookingEventTypes(base, { ...base, endTime: T('2031-01-01T10:30:00Z') })).toEqual(['booking.moved']);
    expect(bookingEventTypes(base, { ...base, resourceId: 'r2' })).toEqual(['booking.moved']);
    expect(bookingEventTypes(base, { ...base, endTime: null })).toEqual(['booking.moved']);
    expect(bookingEventTypes({ ...base, endTime: null }, { ...base, endTime: null })).toEqual([]);
    // equal instants in other Date objects are no move
    expect(bookingEventTypes(base, { ...base, startTime: T('2031-01-01T09:00:00Z') })).toEqual([]);
  });
  it('both when status and time change; no move for a booking that no longer holds its time', () => {
    expect(bookingEventTypes({ ...base, status: 'pending' }, { ...base, status: 'confirmed', resourceId: 'r2' })).toEqual([
      'booking.confirmed',
      'booking.moved',
    ]);
    expect(bookingEventTypes(base, { ...base, status: 'cancelled', resourceId: 'r2' })).toEqual(['booking.cancelled']);
  });
});
