import { randomUUID } from 'node:crypto';
import { prng } from '../../src/modules/availability/random-cases';
import type { Query } from './db-functions';

/**
 * Random catalogs for the tests of the availability documents: rows written with SQL, as any
 * writer might, with every part of the document filled on some seed (related resources,
 * disabled rows, recurring slots, bounds to the microsecond), and bookings and slot usage.
 */

const TYPES = ['fixed', 'flexible', 'group', 'ticket', 'days', 'sharable'];
export const DAY = 86_400_000;
export const BASE = Date.parse('2026-03-02T00:00:00Z');

/** One random catalog of one service (rows written with SQL, as any writer might), and its bookings. */
export async function randomCatalog(
  q: Query,
  companyId: string,
  seed: number,
): Promise<{ sid: string; type: string; rids: string[]; bookings: string[] }> {
  const r = prng(seed);
  const at = (lo: number, hi: number) => new Date(BASE + lo * DAY + Math.floor(r.next() * (hi - lo) * DAY)).toISOString();
  const maybe = <T>(p: number, v: () => T): T | null => (r.next() < p ? v() : null);
  const sid = randomUUID();
  const type = r.pick(TYPES);
  await q(`insert into service (id, company_id, name, type, settings, disabled_at) values (?, ?, ?, ?, ?::jsonb, ?)`, [
    sid,
    companyId,
    `Service ${seed}`,
    type,
    JSON.stringify({ duration: r.pick(['PT30M', 'PT1H']), seed }),
    maybe(0.1, () => at(-5, 0)),
  ]);
  const rids: string[] = [];
  for (let i = r.int(1, 4); i > 0; i--) {
    const rid = randomUUID();
    rids.push(rid);
    await q(`insert into resource (id, company_id, name, disabled_at) values (?, ?, ?, ?)`, [
      rid,
      companyId,
      r.pick(['Alder', 'Birch', 'Cedar', 'Alder']),
      maybe(0.15, () => at(-5, 0)),
    ]);
  }
  for (const rid of rids) {
    if (r.next() < 0.15) continue; // a resource of the company the service does not use
    const others = rids.filter((x) => x !== rid && r.next() < 0.4);
    const related = r.pick([[], others, { all: others.slice(0, 1), any: others.slice(1) }]);
    await q(
      `insert into service_resource_link (id, company_id, service_id, resource_id, related_resource_ids) values (?, ?, ?, ?, ?::jsonb)`,
      [randomUUID(), companyId, sid, rid, JSON.stringify(related)],
    );
  }
  for (const rid of rids) {
    for (let i = r.int(0, 2); i > 0; i--) {
      await q(
        `insert into working_hours_rule (id, company_id, resource_id, service_ids, start_time, end_time, priority, working_hours, created_at) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb, ?)`,
        [
          randomUUID(),
          companyId,
          rid,
          JSON.stringify(r.pick([[], [sid]])),
          maybe(0.5, () => at(-10, 5)),
          maybe(0.5, () => at(20, 40)),
          r.int(0, 3),
          JSON.stringify([{ daysOfWeek: r.int(1, 127), hours: [{ start: '09:00', end: r.pick(['17:00', '24:00']) }] }]),
          at(-30, 0),
        ],
      );
    }
    for (let i = r.int(0, 3); i > 0; i--) {
      const start = at(-3, 25);
      await q(
        `insert into closing_period (id, company_id, resource_id, service_ids, start_time, end_time) values (?, ?, ?, ?::jsonb, ?, ?::timestamptz + ?::interval)`,
        [
          randomUUID(),
          companyId,
          rid,
          JSON.stringify(r.pick([[], [sid]])),
          start,
          start,
          `${r.int(1, 5000)} minutes ${r.int(0, 999999)} microseconds`,
        ],
      );
    }
  }
  const tickets: string[] = [];
  for (let i = r.int(0, 2); i > 0; i--) {
    const id = randomUUID();
    tickets.push(id);
    await q(`insert into ticket (id, company_id, service_id, name, enabled) values (?, ?, ?, ?, ?)`, [
      id,
      companyId,
      sid,
      `T${i}`,
      r.next() < 0.8,
    ]);
  }
  for (let i = r.int(0, 2); i > 0; i--) {
    await q(
      `insert into price_rule (id, company_id, service_id, type, priority, price, compared_price, duration_sec, ticket_id, limitation, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)`,
      [
        randomUUID(),
        companyId,
        sid,
        type,
        r.int(0, 3),
        r.int(0, 5000),
        maybe(0.5, () => r.int(0, 6000)),
        maybe(0.5, () => r.pick([1800, 3600])),
        tickets.length && r.next() < 0.5 ? r.pick(tickets) : null,
        JSON.stringify(maybe(0.5, () => ({ daysOfWeek: r.int(1, 127) }))),
        at(-30, 0),
      ],
    );
  }
  for (let i = r.int(0, 2); i > 0; i--) {
    await q(
      `insert into discount (id, company_id, service_id, type, priority, sums_up, rules, limitation) values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
      [
        randomUUID(),
        companyId,
        sid,
        r.pick(['ticket', 'spots']),
        r.int(0, 3),
        r.next() < 0.5,
        JSON.stringify([{ from: r.int(1, 5), percent: r.int(1, 50) }]),
        JSON.stringify(maybe(0.5, () => ({ times: [{ start: '17:00', end: '24:00' }] }))),
      ],
    );
  }
  for (let i = r.int(0, 2); i > 0; i--) {
    await q(
      `insert into capacity_rule (id, company_id, service_id, type, priority, spots, spots_per_ticket, limitation) values (?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb)`,
      [
        randomUUID(),
        companyId,
        sid,
        r.pick(['group', 'ticket']),
        r.int(0, 3),
        r.int(1, 20),
        JSON.stringify(tickets.length ? { [tickets[0]]: r.int(1, 3) } : {}),
        JSON.stringify(maybe(0.3, () => ({ daysOfWeek: 31 }))),
      ],
    );
  }
  for (let i = r.int(0, 3); i > 0; i--) {
    const recurring = r.next() < 0.5;
    await q(
      `insert into slot (id, company_id, service_id, resource_id, start_time, duration_sec, rrule, time_zone, until, exdates) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)`,
      [
        randomUUID(),
        companyId,
        sid,
        r.next() < 0.7 ? r.pick(rids) : null,
        at(recurring ? -40 : -3, 30),
        r.pick([900, 3600, 5400]),
        recurring ? 'FREQ=DAILY;COUNT=20' : null,
        recurring ? 'Europe/Riga' : null,
        maybe(0.5, () => at(10, 60)),
        JSON.stringify(recurring && r.next() < 0.5 ? ['2026-03-05T09:00:00Z'] : []),
      ],
    );
  }
  // bookings (their occupancy) and slot usage: what the kept catalog leaves out
  const bookings: string[] = [];
  for (const rid of rids) {
    let start = BASE - 5 * DAY + r.int(0, 48) * 900_000;
    for (let i = r.int(0, 8); i > 0; i--) {
      const end = start + r.int(1, 16) * 900_000;
      const id = randomUUID();
      bookings.push(id);
      await q(
        `insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, duration_sec, price, currency, created_at, updated_at)
         values (?, ?, ?, ?, ?, 'confirmed', ?, ?, ?, 0, 'EUR', now(), now())`,
        [id, companyId, sid, rid, type, new Date(start).toISOString(), new Date(end).toISOString(), (end - start) / 1000],
      );
      await q(`insert into booking_occupancy (company_id, booking_id, resource_id, during) values (?, ?, ?, tstzrange(?, ?, '[)'))`, [
        companyId,
        id,
        rid,
        new Date(start).toISOString(),
        new Date(end).toISOString(),
      ]);
      start = end + r.int(0, 4 * 24) * 900_000;
    }
    for (let i = r.int(0, 3); i > 0; i--) {
      await q(
        `insert into slot_usage (company_id, service_id, resource_id, start_time, booked_spots, booked_per_ticket) values (?, ?, ?, ?, ?, '{}') on conflict do nothing`,
        [companyId, sid, rid, new Date(BASE + r.int(0, 20 * 24) * 3_600_000).toISOString(), r.int(1, 5)],
      );
    }
  }
  return { sid, type, rids, bookings };
}
