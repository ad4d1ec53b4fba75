import { prng } from '../../src/modules/availability/random-cases';
import { createTestApp, type TestApp } from '../helpers/app';
import { tablesReadBy, triggerDefinitions, type Query } from '../helpers/db-functions';
import { BASE, DAY, randomCatalog } from '../helpers/random-catalog';

/**
 * The two rules the kept catalog rests on (docs/design/architecture.md, Invariants):
 *
 * 1. every table the kept catalog is read from (booking_kept_catalog and the functions it
 *    calls, read from the database's own text of them) carries the catalog_touch triggers, so
 *    that no change of a row it read leaves the company's catalog version where it was;
 * 2. kept_catalog_snapshot writes exactly the document availability_snapshot writes, with no
 *    occupancy and no slot usage, on random catalogs and arguments.
 */

let t: TestApp;
let companyId: string;
const q: Query = (text, params = []) => t.deps.orm.em.fork().getConnection().execute(text, params) as Promise<any[]>;

beforeAll(async () => {
  t = await createTestApp();
  companyId = (await t.company('Invariants shop', 'Europe/Riga')).id;
});
afterAll(async () => t?.close());

describe('rule 1: the tables the kept catalog reads give the company a new catalog version', () => {
  it('every one carries catalog_touch (every row change, at commit) and catalog_touch_all (truncate)', async () => {
    const kept = (await tablesReadBy(q, 'booking_kept_catalog')).filter((x) => x !== 'catalog_version');
    // the parse found the catalog (a parse that finds nothing would prove nothing)
    expect(kept).toEqual(expect.arrayContaining(['service', 'resource', 'service_resource_link', 'working_hours_rule', 'slot']));
    const triggers = await triggerDefinitions(q);
    const missing = kept.flatMap((table) => {
      const want = {
        [`${table}.catalog_touch`]: `CREATE CONSTRAINT TRIGGER catalog_touch AFTER INSERT OR DELETE OR UPDATE ON public.${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalog_touch()`,
        [`${table}.catalog_touch_all`]: `CREATE TRIGGER catalog_touch_all AFTER TRUNCATE ON public.${table} FOR EACH STATEMENT EXECUTE FUNCTION catalog_touch_all()`,
      };
      return Object.entries(want)
        .filter(([name, def]) => triggers[name] !== def)
        .map(([name]) => `${name}: ${triggers[name] ?? 'missing'}`);
    });
    expect(missing).toEqual([]);
  });

  it('the full document reads those tables and the occupancy only (which the kept catalog leaves to the database)', async () => {
    const kept = await tablesReadBy(q, 'kept_catalog_snapshot');
    const full = await tablesReadBy(q, 'availability_snapshot');
    expect(full.filter((x) => !kept.includes(x))).toEqual(['booking_occupancy', 'slot_usage']);
    expect(kept.filter((x) => !full.includes(x))).toEqual([]);
  });
});

const ARGS = '?::uuid, ?::uuid, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::timestamptz, ?::uuid[], ?::uuid[]';
const arr = (xs: string[] | null) => (xs ? `{${xs.join(',')}}` : null);

describe('rule 2: the kept catalog snapshot is the availability document without occupancy', () => {
  it('on random catalogs, windows, wanted resources and excluded bookings', async () => {
    const filled = new Map<string, number>();
    let compared = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const { sid, rids, bookings } = await randomCatalog(q, companyId, seed);
      const r = prng(seed * 7919);
      for (let k = 0; k < 6; k++) {
        const from = BASE + r.int(-3, 15) * DAY + r.int(0, 23) * 3_600_000;
        const to = from + r.int(1, 14) * DAY;
        const wide = r.next() < 0.5 ? [from, to] : [from - DAY, to + DAY];
        const wanted = r.next() < 0.3 ? null : rids.filter(() => r.next() < 0.6);
        const exclude = bookings.length && r.next() < 0.3 ? [r.pick(bookings)] : null;
        // as booking_kept_catalog calls it (one resource, the window twice) and as availability does
        const args =
          k === 0
            ? [
                companyId,
                sid,
                new Date(from).toISOString(),
                new Date(to).toISOString(),
                new Date(from).toISOString(),
                new Date(to).toISOString(),
                null,
                arr([rids[0]]),
              ]
            : [companyId, sid, ...[wide[0], wide[1], from, to].map((x) => new Date(x).toISOString()), arr(exclude), arr(wanted)];
        const [row] = await q<{ full_doc: string; kept_doc: string }>(
          `select availability_snapshot(${ARGS})::text as full_doc, kept_catalog_snapshot(${ARGS})::text as kept_doc`,
          [...args, ...args],
        );
        const full = JSON.parse(row.full_doc);
        const kept = JSON.parse(row.kept_doc);
        expect(Object.keys(kept)).toEqual(Object.keys(full));
        expect({ seed, k, doc: kept }).toEqual({ seed, k, doc: { ...full, occupancy: [], usage: [] } });
        for (const [part, v] of Object.entries(full))
          if (Array.isArray(v) ? v.length > 0 : v !== null) filled.set(part, (filled.get(part) ?? 0) + 1);
        compared++;
      }
    }
    expect(compared).toBe(144);
    // every part of the document was written with something in it, occupancy and usage included
    const parts = [
      'service',
      'links',
      'resources',
      'hours',
      'closings',
      'occupancy',
      'prices',
      'discounts',
      'capacity',
      'slots',
      'usage',
      'tickets',
    ];
    expect(parts.filter((p) => !filled.get(p))).toEqual([]);
  });
});
