import { computeAvailability } from './engine/availability';
import type { AvailabilitySnapshot, TimeInterval } from './engine/types';
import { prng, randomCase } from './random-cases';

/**
 * The rule a booking checked against the kept catalog rests on (src/modules/booking/booking-kept-catalog.ts):
 * for a fixed or flexible service on resources without related resources, the occupancy
 * refuses a start only by overlapping its buffered time, which is the range the booking's
 * occupancy row holds and the exclusion constraint compares. So the times the engine offers
 * with the occupancy are exactly the times it offers without it whose buffered range
 * `[start - bufferBefore, end + bufferAfter)` overlaps no occupied interval (half-open, as
 * PostgreSQL's `&&` on `[)` ranges: touching is not overlapping, an empty range overlaps nothing).
 */

const overlaps = (list: readonly TimeInterval[], lo: number, hi: number) => list.some((o) => o.start < o.end && o.start < hi && o.end > lo);

function withoutOccupancy(snap: AvailabilitySnapshot): AvailabilitySnapshot {
  return { ...snap, resources: snap.resources.map((r) => ({ ...r, occupied: [] })) };
}

/** Random cases of the grid services with occupancy at the edges too: touching, empty, unbounded. */
function* gridCases(count: number) {
  let found = 0;
  for (let seed = 1; found < count; seed++) {
    const c = randomCase(seed);
    if (c.snap.service.type !== 'fixed' && c.snap.service.type !== 'flexible') continue;
    found++;
    const r = prng(seed * 31 + 7);
    for (const res of c.snap.resources) {
      const extra: TimeInterval[] = [];
      for (const o of res.occupied.slice(0, 3)) {
        // an interval touching another one, and an empty one inside it
        extra.push({ start: o.end, end: o.end + r.int(1, 4) * 15 * 60_000 }, { start: o.start + 60_000, end: o.start + 60_000 });
      }
      if (r.next() < 0.1) extra.push({ start: c.req.to - 3_600_000, end: Infinity });
      if (r.next() < 0.1) extra.push({ start: -Infinity, end: c.req.from + 3_600_000 });
      res.occupied = [...res.occupied, ...extra];
    }
    yield { seed, ...c };
  }
}

describe('the occupancy refuses a grid start only by overlapping its buffered time', () => {
  it('holds on 200 random cases (fixed and flexible, every zone, DST weeks, buffers, prices)', () => {
    let offered = 0;
    let refusedByOccupancy = 0;
    for (const { seed, snap, req } of gridCases(200)) {
      const full = computeAvailability(snap, req);
      const free = computeAvailability(withoutOccupancy(snap), req);
      const before = snap.service.bufferBeforeSec * 1000;
      const after = snap.service.bufferAfterSec * 1000;
      for (const res of snap.resources) {
        const expected = (free.times[res.id] ?? []).filter((e) => !overlaps(res.occupied, e.startTime - before, e.endTime + after));
        refusedByOccupancy += (free.times[res.id] ?? []).length - expected.length;
        offered += expected.length;
        expect({ seed, resource: res.id, times: full.times[res.id] ?? [] }).toEqual({ seed, resource: res.id, times: expected });
      }
    }
    // the cases exercise both sides of the rule
    expect(offered).toBeGreaterThan(1000);
    expect(refusedByOccupancy).toBeGreaterThan(1000);
  });
});
