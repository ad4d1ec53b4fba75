import * as engine from '../src/modules/availability/engine';
import * as compute from '../src/modules/availability/availability.compute';
import { createPricer } from '../src/modules/pricing/engine/pricer';
import type { AvailabilitySnapshot, ResourceInput, TimeInterval } from '../src/modules/availability/engine/types';
import type { LoadedSnapshot } from '../src/modules/availability/snapshot';

/**
 * The times answer without a database or HTTP: the availability benchmark's company built in
 * memory (R resources, B bookings, Europe/Riga, PT1H every 15 minutes with a 15-minute buffer,
 * Mon-Sat 09:00-13:00 and 14:00-19:00, a closed day and afternoon per resource), then N answers
 * for D days: engine and JSON. For instruction counts that do not depend on the machine's load:
 *
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node dist/bench/engine.js
 *
 * once with ENGINE_ANSWERS=0 and once with ENGINE_ANSWERS=N; the difference over N is the cost
 * of one warm answer (both runs make the same warm-up answers first). Occupancy comes in the
 * order each version's snapshot statement returns it: sorted per resource when the engine
 * skips sorting a sorted list, else as inserted.
 *
 * It reports the median, p95 and fastest of the N timed answers, made after ENGINE_WARMUP
 * untimed ones, so the figures are those of compiled code, as in a server that has been running.
 *
 * Knobs: ENGINE_RESOURCES (20), ENGINE_BOOKINGS (2000), ENGINE_DAYS (30), ENGINE_ANSWERS (20),
 * ENGINE_WARMUP (30).
 */
const R = Number(process.env.ENGINE_RESOURCES ?? 20);
const B = Number(process.env.ENGINE_BOOKINGS ?? 2000);
const DAYS = Number(process.env.ENGINE_DAYS ?? 30);
const N = Number(process.env.ENGINE_ANSWERS ?? 20);
const WARMUP = Number(process.env.ENGINE_WARMUP ?? 30);
const FROM = Date.parse('2027-03-01T00:00:00+02:00');
const DAY = 86_400_000;
const ZONE = 'Europe/Riga';

const columnar = typeof (engine as Record<string, unknown>).computeAvailabilityColumns === 'function';

function snapshotOf(): AvailabilitySnapshot {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const resources: ResourceInput[] = [];
  for (let i = 0; i < R; i++) {
    const closedDay = FROM + (3 + (i % 20)) * DAY;
    const occupied: TimeInterval[] = [];
    const taken: [number, number][] = [];
    while (taken.length < Math.round(B / R)) {
      const start = FROM + Math.floor(rand() * 30) * DAY + (7 * 60 + Math.floor(rand() * 36) * 15) * 60_000;
      const end = start + 3600_000;
      if (taken.some(([a, b]) => start < b + 900_000 && a < end + 900_000)) continue;
      taken.push([start, end]);
      occupied.push({ start, end: end + 900_000 });
    }
    if (columnar) occupied.sort((a, b) => a.start - b.start);
    resources.push({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      workingHours: [
        {
          id: `w${i}`,
          priority: 0,
          createdAt: 0,
          windowStart: null,
          windowEnd: null,
          serviceIDs: [],
          days: [
            {
              daysOfWeek: 126,
              hours: [
                { start: 540, end: 780 },
                { start: 840, end: 1140 },
              ],
            },
          ],
        },
      ],
      closingPeriods: [
        { start: closedDay, end: closedDay + DAY, serviceIDs: [] },
        { start: closedDay + 5 * DAY + 12 * 3600_000, end: closedDay + 5 * DAY + 17 * 3600_000, serviceIDs: [] },
      ],
      occupied,
      related: null,
    });
  }
  return {
    zone: ZONE,
    now: Date.parse('2026-11-24T12:00:00Z'),
    service: {
      id: 'svc',
      type: 'fixed',
      durationSec: 3600,
      timeIntervalSec: 900,
      bufferBeforeSec: 0,
      bufferAfterSec: 900,
      availabilityPeriodSec: null,
      checkInMinute: null,
      checkOutMinute: null,
      currency: 'EUR',
    },
    resources,
    relatedResources: [],
    slots: [],
    capacityRules: [],
    pricer: createPricer({ serviceType: 'fixed', currency: 'EUR', zone: ZONE, priceRules: [], discounts: [], ticketIDs: [] }),
  };
}

/** One answer: the engine and the JSON bytes, the way each version's REST path makes them. */
function answer(snapshot: AvailabilitySnapshot): number {
  const loaded = { snapshot, serviceName: 'Haircut', linked: [], ticketIds: [], disabled: false } as LoadedSnapshot;
  const request = { from: FROM, to: FROM + DAYS * DAY, includePast: false, durationSec: null, spots: null, tickets: null };
  const c = compute as unknown as Record<string, (...args: unknown[]) => unknown>;
  if (columnar) {
    const columns = (engine as unknown as Record<string, (...args: unknown[]) => unknown>).computeAvailabilityColumns(snapshot, request);
    return (c.timesAnswerJson(loaded, columns, ZONE) as Buffer).byteLength;
  }
  const result = engine.computeAvailability(snapshot, request);
  return Buffer.from(JSON.stringify(c.timesEntries(loaded, result, ZONE))).byteLength;
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const ms = (x: number) => +x.toFixed(3);

const snapshot = snapshotOf();
let bytes = 0;
// Warm-up: the first answers run interpreted and then compiled code (9.7-12 ms each against
// 0.6-0.8 ms once compiled); a server that has answered a few requests runs the compiled code.
for (let i = 0; i < WARMUP; i++) bytes = answer(snapshot);
const walls: number[] = [];
const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) {
  const t0 = performance.now();
  bytes = answer(snapshot);
  walls.push(performance.now() - t0);
}
const cpu = process.cpuUsage(c0);
const sorted = [...walls].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    path: columnar ? 'columns' : 'objects',
    resources: R,
    bookings: B,
    days: DAYS,
    warmup: WARMUP,
    answers: N,
    bytes,
    medianMs: ms(median(walls)),
    p95Ms: N ? ms(sorted[Math.min(N - 1, Math.floor(0.95 * N))]) : 0,
    minMs: N ? ms(sorted[0]) : 0,
    cpuMsPerAnswer: N ? ms((cpu.user + cpu.system) / 1000 / N) : 0,
  }),
);
