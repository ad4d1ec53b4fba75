import { IANAZone } from 'luxon';
import { localToEpoch } from '../../shared/zone';
import { expandOccurrences, type SeriesSpec } from './recurrence';

// Expectations are literal UTC instants so that a run under any process TZ checks the same thing:
// run with TZ=UTC, TZ=America/New_York and TZ=Asia/Kolkata.
// These check the wall-time conversion of recurrence.zone.ts through expandOccurrences, the path
// every caller takes: against the shared localToEpoch near transitions, and across process zones.

const t = (iso: string) => Date.parse(iso);
const RIGA = 'Europe/Riga';
const NY = 'America/New_York';

describe('agreement with localToEpoch around DST transitions', () => {
  const zones = [RIGA, NY, 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham', 'America/Havana'];

  it.each(zones)('%s', (zone) => {
    const tz = IANAZone.create(zone);
    const days: Array<[number, number, number]> = [];
    for (let ms = t('2026-01-01T00:00:00Z'); ms < t('2027-01-01T00:00:00Z'); ms += 86_400_000) {
      if (tz.offset(ms) === tz.offset(ms + 86_400_000)) continue;
      for (const shift of [0, 1, 2]) {
        const d = new Date(ms + shift * 86_400_000);
        days.push([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
      }
    }
    expect(days.length).toBeGreaterThanOrEqual(6);
    const spec: SeriesSpec = {
      rrule: 'FREQ=DAILY;BYHOUR=0,1,2,3,4,5,22,23;BYMINUTE=0,15,30,45',
      timeZone: zone,
      start: localToEpoch(zone, 2026, 1, 1, 0),
    };
    for (const [y, m, d] of days) {
      const from = localToEpoch(zone, y, m, d, 0);
      const to = localToEpoch(zone, y, m, d, 1440);
      const expected = new Set<number>();
      for (const hour of [0, 1, 2, 3, 4, 5, 22, 23]) {
        for (const minute of [0, 15, 30, 45]) expected.add(localToEpoch(zone, y, m, d, hour * 60 + minute));
      }
      const inWindow = [...expected].filter((ms) => ms >= from && ms < to).sort((a, b) => a - b);
      expect(expandOccurrences(spec, { from, to })).toEqual(inWindow);
    }
  });
});

describe('independence from the process time zone', () => {
  const original = process.env.TZ;
  afterAll(() => {
    process.env.TZ = original;
  });

  it('gives the same instants whatever TZ the process runs in', () => {
    const specs: SeriesSpec[] = [
      { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: RIGA, start: t('2026-03-16T07:00:00Z') },
      { rrule: 'FREQ=DAILY;BYHOUR=2,3;BYMINUTE=30', timeZone: NY, start: t('2026-03-07T07:30:00Z') },
      { rrule: 'FREQ=MONTHLY;BYDAY=-1SU;UNTIL=20261231', timeZone: 'Asia/Kolkata', start: t('2026-01-25T04:30:00Z') },
    ];
    const run = () => specs.map((spec) => expandOccurrences(spec, { from: t('2026-01-01T00:00:00Z'), to: t('2027-01-01T00:00:00Z') }));
    const results = ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Sao_Paulo'].map((zone) => {
      process.env.TZ = zone;
      return run();
    });
    for (const result of results) expect(result).toEqual(results[0]);
    expect(results[0][0]).toHaveLength(42);
  });
});
