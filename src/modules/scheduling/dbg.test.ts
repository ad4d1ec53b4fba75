import { expandOccurrences } from './recurrence';
it('dbg', () => { const out: string[] = [];
  const spec = { rrule: 'FREQ=WEEKLY;BYDAY=MO', timeZone: 'Europe/Riga', start: Date.parse('2026-03-16T07:00:00Z') };
  for (let i = 0; i < 3; i++) {
    let b = performance.now();
    const r = expandOccurrences(spec, { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2126-01-01T00:00:00Z') });
    out.push(['100y weekly', r.length, performance.now() - b].join(" "));
    b = performance.now();
    const n = expandOccurrences({ rrule: 'FREQ=DAILY;INTERVAL=7;BYDAY=MO', timeZone: 'Europe/Riga', start: Date.parse('2026-03-17T07:00:00Z') }, { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2126-01-01T00:00:00Z') });
    out.push(['never 100y', n.length, performance.now() - b].join(" "));
    b = performance.now();
    const m = expandOccurrences({ rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO', timeZone: 'Europe/Riga', start: Date.parse('2026-03-17T07:00:00Z') }, { from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2027-01-01T00:00:00Z') });
    out.push(['sparse daily 1y', m.length, performance.now() - b].join(" "));
    b = performance.now();
    const w = expandOccurrences({ rrule: 'FREQ=WEEKLY;BYDAY=MO,WE,FR', timeZone: 'Europe/Riga', start: Date.parse('2026-03-16T07:00:00Z') }, { from: Date.parse('2026-05-01T00:00:00Z'), to: Date.parse('2026-06-01T00:00:00Z') });
    out.push(['month MWF', w.length, performance.now() - b].join(" "));
  }
  console.log(out.join("\n"));
});
