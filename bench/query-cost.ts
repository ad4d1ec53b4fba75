import { randomUUID } from 'node:crypto';
import { cpus, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getIntrospectionQuery, Kind, parse, print, type FieldNode, type OperationDefinitionNode } from 'graphql';
import { startBenchServer } from './server';

/**
 * The most expensive requests the limits allow, and the ones they refuse: for each, wall time,
 * answer bytes and the longest event-loop stall of the serving process (which runs in this
 * process): every other request waits at least that long.
 */
const RESOURCES = 50;
const DAY = 86_400_000;

async function main(): Promise<void> {
  const s = await startBenchServer();
  const h = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const cid = (
    (await (
      await fetch(`${s.base}/v1/companies`, { method: 'POST', headers: h, body: JSON.stringify({ name: 'Grid', timeZone: 'Europe/Riga' }) })
    ).json()) as { id: string }
  ).id;
  const conn = s.deps.orm.em.fork().getConnection();
  const sid = randomUUID();
  // a 5-minute grid around the clock: 288 start times per resource and day
  await conn.execute(`insert into service (id, company_id, name, type, settings) values (?, ?, 'Grid', 'fixed', ?::jsonb)`, [
    sid,
    cid,
    JSON.stringify({ duration: 'PT5M', timeInterval: 'PT5M' }),
  ]);
  const rids: string[] = [];
  for (let i = 0; i < RESOURCES; i++) {
    const rid = randomUUID();
    rids.push(rid);
    await conn.execute(`insert into resource (id, company_id, name, color) values (?, ?, ?, '#336699')`, [rid, cid, `Court ${i}`]);
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
      JSON.stringify([{ daysOfWeek: 127, hours: [{ start: '00:00', end: '24:00' }] }]),
    ]);
  }
  const from = Date.parse('2027-03-01T00:00:00Z');
  const window = (days: number, resources = RESOURCES) => ({
    from: new Date(from).toISOString(),
    to: new Date(from + days * DAY).toISOString(),
    resourceIDs: rids.slice(0, resources),
  });
  const rest = (body: unknown) => ({ url: `/v1/companies/${cid}/services/${sid}/times`, body });
  const gql = (query: string, variables?: unknown) => ({ url: '/graphql', body: { query, variables } });
  const introspection = (n: number) => {
    const doc = parse(getIntrospectionQuery());
    const op = doc.definitions[0] as OperationDefinitionNode;
    const field = op.selectionSet.selections[0] as FieldNode;
    const selections = Array.from({ length: n }, (_, i) => ({ ...field, alias: { kind: Kind.NAME as const, value: `s${i}` } }));
    return print({ ...doc, definitions: [{ ...op, selectionSet: { ...op.selectionSet, selections } }, ...doc.definitions.slice(1)] });
  };
  const timesQuery = `query($c: ID!, $s: ID!, $i: AvailableTimesInput!) { availableTimes(companyID: $c, serviceID: $s, input: $i) {
    resources { resourceID times { startTime duration price { amount currency } } } } }`;
  const cases: [string, { url: string; body: unknown }][] = [
    ['REST times, 3 days x 50 resources (43,200 start times)', rest(window(3))],
    ['REST times, 93 days x 50 resources (refused: 1.3 M)', rest(window(93))],
    ['GraphQL availableTimes, 3 days x 50 resources (43,200)', gql(timesQuery, { c: cid, s: sid, i: window(3) })],
    ['GraphQL standard introspection', gql(getIntrospectionQuery())],
    ['GraphQL 5 aliased standard introspections (largest allowed)', gql(introspection(5))],
    ['GraphQL 6 aliased standard introspections (refused)', gql(introspection(6))],
    [
      'GraphQL nested introspection lists via fragments (refused)',
      gql(`{ __schema { ...S } } fragment S on __Schema { types { ...T } } fragment T on __Type { fields { type { ...U } } }
           fragment U on __Type { fields { type { fields { name } } } }`),
    ],
  ];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}`);
  console.log('| request | status | time ms | bytes | max event-loop delay ms |');
  console.log('|---|---|---|---|---|');
  for (const [name, c] of cases) {
    // warm once, then measure the second run
    await fetch(`${s.base}${c.url}`, { method: 'POST', headers: h, body: JSON.stringify(c.body) }).then((r) => r.arrayBuffer());
    loop.reset();
    const t0 = performance.now();
    const res = await fetch(`${s.base}${c.url}`, { method: 'POST', headers: h, body: JSON.stringify(c.body) });
    const bytes = (await res.arrayBuffer()).byteLength;
    const ms = performance.now() - t0;
    const stall = loop.max / 1e6;
    console.log(`| ${name} | ${res.status} | ${ms.toFixed(0)} | ${bytes.toLocaleString('en')} | ${stall.toFixed(0)} |`);
  }
  await s.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
