import 'reflect-metadata';
import { BOOKING_INSERT_COLUMNS } from '../../migrations/Migration20261126000100BookingWriteFunctions';
import { BOOKING_COLUMNS } from './booking.store';

describe('booking store', () => {
  it('booking_insert writes exactly the columns the store writes, in its order', () => {
    // a column added to the store needs a migration that replaces booking_insert
    expect([...BOOKING_INSERT_COLUMNS]).toEqual([...BOOKING_COLUMNS]);
  });
});
