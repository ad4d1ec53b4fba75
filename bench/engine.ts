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
 * of one answer. Occupancy comes in the order each version's snapshot statement returns it:
 * sorted per resource when the engine skips sorting a sorted list, else as inserted.
 *
 * Knobs: ENGINE_RESOURCES (20), ENGINE_BOOKINGS (2000), ENGINE_DAYS (30), ENGINE_ANSWERS (20).
 */
const R = Number(process.env.ENGINE_RESOURCES ?? 20);
const B = Number(process.env.ENGINE_BOOKINGS ?? 2000);
const DAYS = Number(process.env.ENGINE_DAYS ?? 30);
const N = Number(process.env.ENGINE_ANSWERS ?? 20);
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

const snapshot = snapshotOf();
let bytes = 0;
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) bytes = answer(snapshot);
const cpu = process.cpuUsage(c0);
console.log(
  JSON.stringify({
    path: columnar ? 'columns' : 'objects',
    resources: R,
    bookings: B,
    days: DAYS,
    answers: N,
    bytes,
    msPerAnswer: N ? +((performance.now() - t0) / N).toFixed(2) : 0,
    cpuMsPerAnswer: N ? +((cpu.user + cpu.system) / 1000 / N).toFixed(2) : 0,
  }),
);
