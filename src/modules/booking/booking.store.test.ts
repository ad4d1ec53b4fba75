import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionsDir } from '../../db/function-files';
import { BOOKING_COLUMNS } from './booking.store';

describe('booking store', () => {
  it('booking_insert writes exactly the columns the store writes, in its order', () => {
    // a column added to the store is added to src/db/functions/booking_insert.sql too
    const text = readFileSync(join(functionsDir(), 'booking_insert.sql'), 'utf8');
    const listed = /insert into booking \(([^)]*)\)\s+select ([^;]*?) from jsonb_populate_record\(null::booking, p_booking\);/.exec(text);
    expect(listed).not.toBeNull();
    const [, inserted, selected] = listed!;
    expect(selected).toBe(inserted);
    expect(inserted.split(',').map((c) => c.trim())).toEqual([...BOOKING_COLUMNS]);
  });
});
