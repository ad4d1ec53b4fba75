import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionFiles, functionsDir } from '../../db/function-files';
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

  it("records a new booking's events through the outbox's one enqueue, webhook_enqueue", () => {
    const files = functionFiles();
    const text = files.find((f) => f.name === 'booking_insert')!.text;
    expect(text).toMatch(/perform webhook_enqueue\(p_company => v_company, p_events => p_events, p_at => p_event_at\);/);
    // no other database function writes the outbox's rows
    const writers = files.filter((f) => /insert into webhook_(event|delivery)\b/.test(f.text)).map((f) => f.name);
    expect(writers).toEqual(['webhook_enqueue']);
  });
});
