import type { ServiceType } from '../../../shared/service-type';
import { addDays, epochToLocal, localDate, localToEpoch, startOfLocalDay, weekdayBit, weekdayOf } from '../../../shared/zone';
import { computeAvailability, computeAvailableDates } from './availability';
import { iso, MIN, prng, resource, service, snapshot, testPricer } from './testkit';
import type { AvailabilityRequest, AvailabilitySnapshot, TimeInterval, WorkingHoursRuleInput } from './types';

const ZONES = ['Europe/Riga', 'America/New_York', 'Asia/Kolkata', 'UTC', 'Australia/Lord_Howe'];
// around the 2026 transitions of those zones, and a quiet week
const FIRST_DATES = ['2026-03-06', '2026-03-27', '2026-10-23', '2026-10-30', '2026-04-03', '2026-10-02', '2026-06-10'];
const HOUR_MS = 3_600_000;

interface Fixture {
  snap: AvailabilitySnapshot;
  req: AvailabilityRequest;
}

/** `earliest` (minutes) keeps hours out of the night, where DST gaps are. */
function makeFixture(seed: number, type: ServiceType, earliest: number): Fixture {
  const r = prng(seed);
  const zone = r.pick(ZONES);
  const dayStart = startOfLocalDay(zone, r.pick(FIRST_DATES));
  const from = dayStart + r.int(0, 5) * HOUR_MS;
  const to = from + 3 * 24 * HOUR_MS - r.int(0, 5) * HOUR_MS;
  const at = (lo: number, hi: number) => lo + r.int(0, Math.floor((hi - lo) / (15 * 60_000))) * 15 * 60_000;
  const rules: WorkingHoursRuleInput[] = [];
  for (let i = r.int(1, 3); i > 0; i--) {
    const days = [];
    for (let d = r.int(1, 2); d > 0; d--) {
      const hours = [];
      for (let h = r.int(1, 3); h > 0; h--) {
        const s = r.int(earliest / 15, 92) * 15;
        hours.push({ start: s, end: Math.min(1440, s + r.int(0, 40) * 15) });
      }
      days.push({ daysOfWeek: r.next() < 0.6 ? 127 : r.int(0, 127), hours });
    }
    const windowStart = r.next() < 0.5 ? null : at(from - 24 * HOUR_MS, to);
    rules.push({
      id: `w${i}`,
      priority: r.int(0, 3),
      createdAt: r.int(0, 5),
      windowStart,
      windowEnd: windowStart === null || r.next() < 0.3 ? null : at(windowStart, to + 24 * HOUR_MS),
      serviceIDs: r.pick([[], [], ['svc'], ['other']]),
      days,
    });
  }
  const closingPeriods = [];
  for (let i = r.int(0, 3); i > 0; i--) {
    const s = at(from, to);
    closingPeriods.push({ start: s, end: s + r.int(0, 16) * 15 * 60_000, serviceIDs: r.pick([[], ['other']]) });
  }
  const occupied: TimeInterval[] = [];
  for (let i = r.int(0, 15); i > 0; i--) {
    const s = at(from - 6 * HOUR_MS, to);
    occupied.push({ start: s, end: r.next() < 0.03 ? Infinity : s + r.int(0, 12) * 15 * 60_000 });
  }
  const step = r.next() < 0.5 ? null : { durationSec: r.pick([15, 30, 60]) * MIN, minDurationSec: null, maxDurationSec: null };
  const snap = snapshot({
    zone,
    now: from + r.int(-24, 48) * HOUR_MS,
    service: service({
      type,
      durationSec: r.pick([15, 30, 45, 60, 90, 120]) * MIN,
      timeIntervalSec: r.pick([null, 7 * MIN, 15 * MIN, 30 * MIN, 60 * MIN]),
      bufferBeforeSec: r.pick([0, 5, 15, 30]) * MIN,
      bufferAfterSec: r.pick([0, 5, 15, 30]) * MIN,
      availabilityPeriodSec: r.next() < 0.7 ? null : r.int(1, 4) * 86_400,
    }),
    resources: [resource('r1', { workingHours: rules, closingPeriods, occupied })],
    pricer: testPricer({ step }),
  });
  const req: AvailabilityRequest = {
    from,
    to,
    includePast: r.next() < 0.5,
    durationSec: type === 'fixed' || r.next() < 0.5 ? null : r.pick([30, 60, 90]) * MIN,
    spots: null,
    tickets: null,
  };
  return { snap, req };
}

const chosen = new WeakMap<AvailabilitySnapshot, Map<string, WorkingHoursRuleInput | null>>();

/** The working-hours rule of a local date, chosen without the engine's code. */
function chosenRule(snap: AvailabilitySnapshot, date: string): WorkingHoursRuleInput | null {
  let cache = chosen.get(snap);
  if (cache === undefined) chosen.set(snap, (cache = new Map()));
  let w = cache.get(date);
  if (w === undefined) cache.set(date, (w = chooseRule(snap, date)));
  return w;
}

function chooseRule(snap: AvailabilitySnapshot, date: string): WorkingHoursRuleInput | null {
  const start = startOfLocalDay(snap.zone, date);
  const end = startOfLocalDay(snap.zone, addDays(date, 1));
  const rules = snap.resources[0].workingHours
    .filter((w) => w.serviceIDs.length === 0 || w.serviceIDs.includes(snap.service.id))
    .filter((w) => (w.windowStart ?? -Infinity) < end && (w.windowEnd ?? Infinity) > start)
    .sort((a, b) => b.priority - a.priority || b.createdAt - a.createdAt);
  return rules[0] ?? null;
}

const busyFor = (snap: AvailabilitySnapshot, lo: number, hi: number) =>
  snap.resources[0].occupied.some((o) => o.end > o.start && o.start < hi && o.end > lo);
const closedFor = (snap: AvailabilitySnapshot, lo: number, hi: number) =>
  snap.resources[0].closingPeriods.some((c) => (c.serviceIDs.length === 0 || c.serviceIDs.includes('svc')) && c.start < hi && c.end > lo);

/** Is instant `t` inside the open hours, judged on its own local wall clock? */
function openAt(snap: AvailabilitySnapshot, t: number): boolean {
  const p = epochToLocal(snap.zone, t);
  const date = `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
  const w = chosenRule(snap, date);
  if (w === null || t < (w.windowStart ?? -Infinity) || t >= (w.windowEnd ?? Infinity)) return false;
  const bit = weekdayBit(p.weekday);
  return w.days.some((d) => (d.daysOfWeek & bit) !== 0 && d.hours.some((h) => h.start <= p.minuteOfDay && p.minuteOfDay < h.end));
}

/** Fixed-service answer computed the slow way: the zone helpers per boundary and naive scans. */
function reference(snap: AvailabilitySnapshot, req: AvailabilityRequest): number[] {
  const { zone, service: svc } = snap;
  const lo = req.includePast ? req.from : Math.max(req.from, snap.now);
  const hi = Math.min(req.to, svc.availabilityPeriodSec === null ? Infinity : snap.now + svc.availabilityPeriodSec * 1000);
  const len = svc.durationSec * 1000;
  const step = Math.max(svc.timeIntervalSec ? svc.timeIntervalSec * 1000 : len, 5 * 60_000);
  const anchors: [number, number][] = [];
  for (let date = localDate(zone, req.from - 86_400_000); date <= localDate(zone, req.to + 2 * 86_400_000); date = addDays(date, 1)) {
    const w = chosenRule(snap, date);
    if (w === null) continue;
    const bit = weekdayBit(weekdayOf(date));
    const mins = w.days
      .filter((d) => (d.daysOfWeek & bit) !== 0)
      .flatMap((d) => d.hours)
      .filter((h) => h.end > h.start)
      .sort((a, b) => a.start - b.start);
    const merged: [number, number][] = [];
    for (const h of mins) {
      const last = merged[merged.length - 1];
      if (last && h.start <= last[1]) last[1] = Math.max(last[1], h.end);
      else merged.push([h.start, h.end]);
    }
    const [y, m, d] = date.split('-').map(Number);
    for (const [s, e] of merged) {
      const a = Math.max(localToEpoch(zone, y, m, d, s), w.windowStart ?? -Infinity);
      const b = Math.min(localToEpoch(zone, y, m, d, e), w.windowEnd ?? Infinity);
      if (b > a) anchors.push([a, b]);
    }
  }
  const covered = (a: number, b: number) => {
    let t = a;
    for (let moved = true; moved && t < b;) {
      moved = false;
      for (const [s, e] of anchors) {
        if (s <= t && e > t) {
          t = e;
          moved = true;
        }
      }
    }
    return t >= b;
  };
  const out: number[] = [];
  for (const [a, b] of anchors) {
    for (let t = a; t < b; t += step) {
      if (t < lo || t >= hi || !covered(t, t + len) || closedFor(snap, t, t + len)) continue;
      if (busyFor(snap, t - svc.bufferBeforeSec * 1000, t + len + svc.bufferAfterSec * 1000)) continue;
      out.push(t);
    }
  }
  return out.sort((x, y) => x - y);
}

describe('properties on seeded random fixtures', () => {
  it.each(Array.from({ length: 100 }, (_, i) => i + 1))('fixed service #%i matches the slow reference exactly', (seed) => {
    const { snap, req } = makeFixture(seed, 'fixed', 5 * 60);
    const got = computeAvailability(snap, req).times.r1.map((e) => e.startTime);
    expect(got.map(iso)).toEqual(reference(snap, req).map(iso));
  });

  it.each(Array.from({ length: 150 }, (_, i) => [(['fixed', 'flexible', 'sharable'] as const)[i % 3], 1000 + i] as const))(
    '%s service #%i never returns a time outside open hours or against an occupied interval',
    (type, seed) => {
      const { snap, req } = makeFixture(seed, type, 0);
      const { bufferBeforeSec, bufferAfterSec } = snap.service;
      const entries = computeAvailability(snap, req).times.r1;
      const lo = req.includePast ? req.from : Math.max(req.from, snap.now);
      const dates = new Set<string>();
      let previous = -Infinity;
      for (const e of entries) {
        const t = e.startTime;
        const end = t + e.durationSec * 1000;
        expect(t).toBeGreaterThan(previous);
        previous = t;
        expect(t).toBeGreaterThanOrEqual(lo);
        expect(t).toBeLessThan(req.to);
        expect(e.durationSec).toBeGreaterThan(0);
        expect(busyFor(snap, t - bufferBeforeSec * 1000, end + bufferAfterSec * 1000)).toBe(false);
        expect(closedFor(snap, t, end)).toBe(false);
        for (let s = t; s < end; s += 5 * 60_000) expect([iso(s), openAt(snap, s)]).toEqual([iso(s), true]);
        expect(openAt(snap, end - 1)).toBe(true);
        dates.add(localDate(snap.zone, t));
      }
      expect(computeAvailableDates(snap, req).r1).toEqual([...dates]);
    },
  );
});
