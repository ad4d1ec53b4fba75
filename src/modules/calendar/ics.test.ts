import { renderFeed, type FeedEvent } from './ics';

const event = (over: Partial<FeedEvent> = {}): FeedEvent => ({
  bookingId: '0b5f3c1e-8a3c-4a57-9d2e-1f1f0e3c9a11',
  status: 'confirmed',
  startMs: Date.parse('2026-03-28T08:00:00Z'),
  endMs: Date.parse('2026-03-28T09:00:00Z'),
  sequence: 0,
  createdMs: Date.parse('2026-03-01T00:00:00Z'),
  updatedMs: Date.parse('2026-03-02T00:00:00Z'),
  serviceName: 'Massage',
  resourceName: 'Room 1',
  spots: 1,
  ...over,
});

const feed = (events: FeedEvent[], timeZone = 'Europe/Riga') => renderFeed({ name: 'Shop', timeZone, host: 'bookings.example', events });

describe('renderFeed', () => {
  it('writes local times with the zone and its VTIMEZONE, on both sides of a DST change', () => {
    const text = feed([
      event(),
      event({ bookingId: 'b2', startMs: Date.parse('2026-03-30T07:00:00Z'), endMs: Date.parse('2026-03-30T08:00:00Z') }),
    ]);
    const lines = text.split('\r\n');
    expect(text).toContain('BEGIN:VTIMEZONE\r\nTZID:Europe/Riga');
    expect(lines.filter((l) => l.startsWith('DTSTART;'))).toEqual([
      'DTSTART;TZID=Europe/Riga:20260328T100000',
      'DTSTART;TZID=Europe/Riga:20260330T100000',
    ]);
    expect(lines).toEqual(
      expect.arrayContaining([
        'X-WR-TIMEZONE:Europe/Riga',
        'UID:0b5f3c1e-8a3c-4a57-9d2e-1f1f0e3c9a11@bookings.example',
        'DTSTAMP:20260302T000000Z',
      ]),
    );
  });
  it('does not depend on the process time zone or the moment it runs', () => {
    const a = feed([event()]);
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(feed([event()])).toBe(a);
    } finally {
      process.env.TZ = tz;
    }
  });
  it('falls back to UTC for a zone without a VTIMEZONE definition', () => {
    const text = feed([event()], 'America/Ciudad_Juarez');
    expect(text).not.toContain('TZID');
    expect(text).toContain('DTSTART:20260328T080000Z');
  });
  it('marks pending bookings tentative, numbers moves, and leaves out the end of a running booking', () => {
    const text = feed([event({ status: 'pending', sequence: 3, endMs: null, spots: 4 })]);
    expect(text).toContain('STATUS:TENTATIVE');
    expect(text).toContain('SUMMARY:Massage (pending)');
    expect(text).toContain('SEQUENCE:3');
    expect(text).not.toContain('DTEND');
    expect(text).toContain('Room 1\\, 4 spots');
  });
});
