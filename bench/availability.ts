import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { percentile, sqlStatements, startBenchServer } from './server';

/**
 * Availability over HTTP on a realistic company: one fixed service (PT1H, 15-minute starts),
 * 20 resources, working hours Mon-Sat with a lunch break, closing periods, 2,000 bookings in
 * the month. Measures the month-long and the 7-day `times` request with a warm server.
 */
const RESOURCES = 20;
const BOOKINGS = 2000;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

async function main(): Promise<void> {
  const s = await startBenchServer();
  const h = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const company = (await (
    await fetch(`${s.base}/v1/companies`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ name: 'Bench salon', timeZone: 'Europe/Riga' }),
    })
  ).json()) as { id: string };
  const conn = s.deps.orm.em.fork().getConnection();
  const cid = company.id;
  const sid = randomUUID();
  await conn.execute(`insert into service (id, company_id, name, type, settings) values (?, ?, 'Haircut', 'fixed', ?::jsonb)`, [
    sid,
    cid,
    JSON.stringify({ duration: 'PT1H', timeInterval: 'PT15M', bufferAfter: 'PT15M' }),
  ]);
  const from = Date.parse('2027-03-01T00:00:00+02:00');
  const resources: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const rid = randomUUID();
    resources.push(rid);
    await conn.execute(`insert into resource (id, company_id, name, color) values (?, ?, ?, '#336699')`, [
      rid,
      cid,
      `Stylist ${String(i).padStart(2, '0')}`,
    ]);
    await conn.execute(`insert into service_resource_link (id, company_id, service_id, resource_id) values (?, ?, ?, ?)`, [
      randomUUID(),
      cid,
      sid,
      rid,
    ]);
    await conn.execute(`insert into working_hours_rule (id, company_id, resource_id, working_hours) values (?, ?, ?, ?::jsonb)`, [
      randomUUID(),
      cid,
      rid,
      JSON.stringify([
        {
          daysOfWeek: 126,
          hours: [
            { start: '09:00', end: '13:00' },
            { start: '14:00', end: '19:00' },
          ],
        },
      ]),
    ]);
    // a closed day and a closed afternoon per resource
    const closedDay = from + (3 + (i % 20)) * 86_400_000;
    await conn.execute(`insert into closing_period (id, company_id, resource_id, start_time, end_time) values (?, ?, ?, ?, ?)`, [
      randomUUID(),
      cid,
      rid,
      new Date(closedDay).toISOString(),
      new Date(closedDay + 86_400_000).toISOString(),
    ]);
    await conn.execute(`insert into closing_period (id, company_id, resource_id, start_time, end_time) values (?, ?, ?, ?, ?)`, [
      randomUUID(),
      cid,
      rid,
      new Date(closedDay + 5 * 86_400_000 + 12 * 3600_000).toISOString(),
      new Date(closedDay + 5 * 86_400_000 + 17 * 3600_000).toISOString(),
    ]);
  }
  // 100 bookings per resource: about 3.3 a day at distinct quarter hours within working hours
  let made = 0;
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const rows: unknown[][] = [];
  for (const rid of resources) {
    const taken: [number, number][] = [];
    while (taken.length < BOOKINGS / RESOURCES) {
      const dayIdx = Math.floor(rand() * 30);
      const quarter = Math.floor(rand() * 36); // 09:00 .. 17:45 local
      const start = from + dayIdx * 86_400_000 + (7 * 60 + quarter * 15) * 60_000; // 09:00 local = 07:00Z in winter
      const end = start + 3600_000;
      if (taken.some(([a, b]) => start < b + 900_000 && a < end + 900_000)) continue;
      taken.push([start, end]);
      rows.push([randomUUID(), cid, sid, rid, new Date(start).toISOString(), new Date(end).toISOString()]);
      made++;
    }
  }
  for (const r of rows) {
    await conn.execute(
      `insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, buffer_after_sec) values (?, ?, ?, ?, 'fixed', 'confirmed', ?, ?, 900)`,
      r,
    );
    await conn.execute(
      `insert into booking_occupancy (company_id, booking_id, resource_id, during) values (?, ?, ?, tstzrange(?::timestamptz, ?::timestamptz + interval '15 minutes', '[)'))`,
      [r[1], r[0], r[3], r[4], r[5]],
    );
  }

  const measure = async (label: string, days: number) => {
    const body = JSON.stringify({ from: new Date(from).toISOString(), to: new Date(from + days * 86_400_000).toISOString() });
    const url = `${s.base}/v1/companies/${cid}/services/${sid}/times`;
    let entries = 0;
    for (let i = 0; i < 20; i++) await (await fetch(url, { method: 'POST', headers: h, body })).arrayBuffer(); // warm-up
    const before = await sqlStatements(s.base);
    const lat: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const res = await fetch(url, { method: 'POST', headers: h, body });
      const text = await res.text();
      lat.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      if (i === 0)
        entries = Object.values((JSON.parse(text) as { times: Record<string, unknown[]> }).times).reduce((a, l) => a + l.length, 0);
    }
    const statements = ((await sqlStatements(s.base)) - before) / RUNS;
    lat.sort((a, b) => a - b);
    return {
      request: label,
      runs: RUNS,
      entries,
      medianMs: +percentile(lat, 50).toFixed(2),
      p95Ms: +percentile(lat, 95).toFixed(2),
      sqlStatementsPerRequest: statements,
    };
  };
  const month = await measure('month (30 days)', 30);
  const week = await measure('7 days', 7);
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30) },
        resources: RESOURCES,
        bookings: made,
        results: [month, week],
      },
      null,
      2,
    ),
  );
  await s.stop();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
