import { cpus, loadavg, totalmem } from 'node:os';
import { percentile, startBenchServer } from './server';

/**
 * GraphQL next to REST for the same data: 50 services, each with its linked resources (5 of
 * 20) and its tickets (3).
 *
 * - GraphQL: one `services` query with nested `resources` and `tickets` pages.
 * - REST, the list alone: `GET /services` (one request; it holds neither resources nor tickets).
 * - REST, the same data: the list, then each service's links (with their resources) and
 *   tickets: 101 requests, sent 8 at a time as a client would.
 *
 * Sequential answers on a warm server; median and p95 latency, CPU per answer of the process
 * (server and client share it). `BENCH_RUNS` (100); `BENCH_ONLY_GRAPHQL=1` skips the REST requests
 * (for a CPU profile of the GraphQL one).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const ONLY_GRAPHQL = process.env.BENCH_ONLY_GRAPHQL === '1';
const SERVICES = 50;
const RESOURCES = 20;

type Server = Awaited<ReturnType<typeof startBenchServer>>;

async function main(): Promise<void> {
  const s: Server = await startBenchServer();
  const h = { 'x-api-key': s.key, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${s.base}${path}`, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };
  const cid = (await call('POST', '/v1/companies', { name: 'Bench catalog', timeZone: 'Europe/Riga' })).id as string;
  const resources: string[] = [];
  for (let i = 0; i < RESOURCES; i++)
    resources.push((await call('POST', `/v1/companies/${cid}/resources`, { name: `Room ${i}`, color: '#336699' })).id);
  const services: string[] = [];
  for (let i = 0; i < SERVICES; i++) {
    const sid = (
      await call('POST', `/v1/companies/${cid}/services`, { name: `Class ${i}`, type: 'ticket', settings: { duration: 'PT1H' } })
    ).id as string;
    services.push(sid);
    for (let k = 0; k < 5; k++)
      await call('POST', `/v1/companies/${cid}/services/${sid}/links`, { resourceID: resources[(i + k * 4) % RESOURCES] });
    for (const name of ['Adult', 'Child', 'Senior']) await call('POST', `/v1/companies/${cid}/services/${sid}/tickets`, { name });
  }

  const query = `query ($c: ID!) {
    services(companyID: $c, limit: 100) { total services {
      id name type color metaData position disabledAt createdAt updatedAt
      resources { total resources { id name color metaData disabledAt } }
      tickets { total tickets { id name enabled metaData } }
    } }
  }`;
  const gql = async () => {
    const res = await fetch(`${s.base}/graphql`, { method: 'POST', headers: h, body: JSON.stringify({ query, variables: { c: cid } }) });
    const text = await res.text();
    if (res.status !== 200 || text.includes('"errors"')) throw new Error(`graphql ${res.status}: ${text.slice(0, 300)}`);
    const page = JSON.parse(text).data.services;
    if (page.services.length !== SERVICES || page.services[0].tickets.tickets.length !== 3) throw new Error('graphql: incomplete answer');
  };
  const restList = async () => {
    const list = await call('GET', `/v1/companies/${cid}/services`);
    if (list.length !== SERVICES) throw new Error('rest: incomplete list');
    return list as { id: string }[];
  };
  const restAll = async () => {
    const list = await restList();
    const queue = list.flatMap((svc) => [
      `/v1/companies/${cid}/services/${svc.id}/links`,
      `/v1/companies/${cid}/services/${svc.id}/tickets`,
    ]);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let path = queue.shift(); path; path = queue.shift()) await call('GET', path);
      }),
    );
  };

  const measure = async (label: string, fn: () => Promise<unknown>) => {
    for (let i = 0; i < 10; i++) await fn();
    const lat: number[] = [];
    const c0 = process.cpuUsage();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await fn();
      lat.push(performance.now() - t0);
    }
    const c = process.cpuUsage(c0);
    lat.sort((a, b) => a - b);
    return {
      request: label,
      medianMs: +percentile(lat, 50).toFixed(2),
      p95Ms: +percentile(lat, 95).toFixed(2),
      cpuMsPerAnswer: +((c.user + c.system) / 1000 / RUNS).toFixed(2),
    };
  };
  const results = [await measure('GraphQL: 50 services with resources and tickets (1 request)', gql)];
  if (!ONLY_GRAPHQL) {
    results.push(await measure('REST: GET /services (1 request, no resources or tickets)', restList));
    results.push(await measure('REST: the list, links and tickets of each service (101 requests, 8 at a time)', restAll));
  }
  console.log(
    JSON.stringify(
      {
        machine: { cpus: cpus().length, model: cpus()[0]?.model, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version },
        loadAverage1m: +loadavg()[0].toFixed(2),
        results,
      },
      null,
      2,
    ),
  );
  await s.stop();
}

main().then(
  // a finished benchmark does not wait for handles its libraries leave open
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
