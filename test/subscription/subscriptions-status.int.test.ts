import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { sweepSubscriptions } from '../../src/modules/subscription/subscription.sweeper';
import {
  CONTRACT_STATUSES,
  EFFECTIVE_STATUS_SQL,
  effectiveStatus,
  effectiveStatusParams,
  type ContractStatus,
} from '../../src/modules/subscription/subscription.status';

/**
 * The subscription contract state machine through the merchant API: a change the machine does
 * not allow is 409 and changes nothing (row, ledger, audit log), over REST and GraphQL; asking
 * for the status a contract already stands in past its deadline writes it as the sweeper would;
 * the effective status reads the same in SQL as in code.
 */

const T0 = Date.parse('2026-04-01T09:00:00Z');
const clock = new TestClock(T0);
let t: TestApp;
let cid: string;
let sid: string;

const base = () => `/v1/companies/${cid}/plugins/subscription`;
const db = () => t.deps.orm.em.fork().getConnection();

beforeAll(async () => {
  t = await createTestApp({ clock });
  cid = (await t.company('Status gym', 'UTC')).id;
  const s = await t.call('POST', `${base()}/list`, { body: { title: 'Five visits', duration: 'P1M', limitations: { bookingsCount: 5 } } });
  expect(s.status).toBe(201);
  sid = s.body.id;
});
afterAll(async () => t?.close());
beforeEach(() => clock.set(T0));

async function contract(body: Record<string, unknown> = {}): Promise<any> {
  const r = await t.call('POST', `${base()}/list/${sid}/contracts`, { body });
  expect(r.status).toBe(201);
  return r.body;
}
const patch = (id: string, body: Record<string, unknown>) => t.call('PATCH', `${base()}/contracts/${id}`, { body });
const gqlPatch = (id: string, input: Record<string, unknown>) =>
  t.gql(
    `mutation($c: ID!, $id: ID!, $input: UpdateSubscriptionContractInput!) {
       updateSubscriptionContract(companyID: $c, id: $id, input: $input) { id status }
     }`,
    { c: cid, id, input },
  );

/** A contract in each stored status. */
async function inEveryStatus(): Promise<Record<ContractStatus, string>> {
  const pending = (await contract({ status: 'pending_payment' })).id;
  const active = (await contract()).id;
  const expired = (await contract()).id;
  const cancelled = (await contract()).id;
  expect((await patch(expired, { status: 'expired' })).body.status).toBe('expired');
  expect((await patch(cancelled, { status: 'cancelled' })).body.status).toBe('cancelled');
  return { pending_payment: pending, active, expired, cancelled };
}

/** Everything a refused change could have touched: the row, its ledger and the audit log. */
async function snapshot(id: string) {
  const [row] = await db().execute<Record<string, unknown>[]>('select * from subscription_contract where id = ?', [id]);
  const ledger = await db().execute<{ id: string; amount: number }[]>(
    'select id, amount from subscription_visit where contract_id = ? order by seq',
    [id],
  );
  const [audit] = await db().execute<{ n: number }[]>('select count(*)::int as n from audit_entry where company_id = ?', [cid]);
  return { row, ledger, audit: audit.n };
}

const REFUSED: [ContractStatus, ContractStatus][] = [
  ['pending_payment', 'expired'],
  ['active', 'pending_payment'],
  ['expired', 'active'],
  ['expired', 'pending_payment'],
  ['expired', 'cancelled'],
  ['cancelled', 'pending_payment'],
  ['cancelled', 'active'],
  ['cancelled', 'expired'],
];

describe('merchant status changes the machine refuses', () => {
  it.each(REFUSED)('%s -> %s is 409 over REST and GraphQL and changes nothing', async (from, to) => {
    const ids = await inEveryStatus();
    const id = ids[from];
    const before = await snapshot(id);
    clock.advance(60_000);
    // other fields in the same request are not applied either
    const r = await patch(id, { status: to, metaDataUpdate: { expectedVersion: 1, path: 'note', value: 'x' } });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ code: 'conflict' });
    const g = await gqlPatch(id, { status: to });
    expect(g.body.errors[0].extensions.code).toBe('conflict');
    expect(g.body.data?.updateSubscriptionContract ?? null).toBeNull();
    expect(await snapshot(id)).toEqual(before);
    expect((await t.call('GET', `${base()}/contracts/${id}`)).body).toMatchObject({ status: from, metaData: {} });
  });

  it('allows setting the current status again, which changes nothing', async () => {
    const ids = await inEveryStatus();
    for (const status of CONTRACT_STATUSES) {
      const before = await snapshot(ids[status]);
      const r = await patch(ids[status], { status });
      expect(r.status).toBe(200);
      expect(r.body.status).toBe(status);
      expect((await snapshot(ids[status])).ledger).toEqual(before.ledger);
      expect((await snapshot(ids[status])).row.status).toBe(status);
    }
  });
});

describe('effective status and the machine', () => {
  /**
   * A contract stored as `stored` that stands in `stands` now: every other status is 409 and
   * changes nothing; asking for `stands` is 200. Returns that answer.
   */
  async function catchUp(id: string, stored: ContractStatus, stands: ContractStatus): Promise<any> {
    const before = await snapshot(id);
    expect(before.row.status).toBe(stored);
    for (const to of CONTRACT_STATUSES.filter((s) => s !== stands)) expect((await patch(id, { status: to })).status).toBe(409);
    expect(await snapshot(id)).toEqual(before);
    const r = await patch(id, { status: stands });
    expect(r.status).toBe(200);
    return r.body;
  }

  it('judges a contract past its end as expired; asking for expired writes the expiry as the sweeper would', async () => {
    const k = await contract();
    clock.set(Date.parse('2026-05-01T09:00:00Z'));
    expect((await catchUp(k.id, 'active', 'expired')).status).toBe('expired');
    const after = await snapshot(k.id);
    expect(after.row.status).toBe('expired');
    // the unused visits lapse with the contract, as the sweeper's expiry does
    expect(after.ledger.map((e) => e.amount)).toEqual([5, -5]);
    // and the sweeper finds nothing left to do for it
    await sweepSubscriptions(t.deps, new Date(clock.now()));
    const swept = await snapshot(k.id);
    expect([swept.row, swept.ledger]).toEqual([after.row, after.ledger]);
  });

  it('judges an unpaid contract past its deadline as cancelled; asking for cancelled writes the lapse as the sweeper would', async () => {
    const k = await contract({ status: 'pending_payment', expiresAt: '2026-04-01T10:00:00Z' });
    clock.set(Date.parse('2026-04-01T10:00:00Z'));
    expect(await catchUp(k.id, 'pending_payment', 'cancelled')).toMatchObject({ status: 'cancelled', expiresAt: '2026-04-01T10:00:00Z' });
    const [row] = await db().execute('select status, cancelled_at, pending_expires_at from subscription_contract where id = ?', [k.id]);
    expect(row.status).toBe('cancelled');
    expect(new Date(row.cancelled_at).getTime()).toBe(clock.now());
    const written = (await snapshot(k.id)).row;
    await sweepSubscriptions(t.deps, new Date(clock.now()));
    expect((await snapshot(k.id)).row).toEqual(written);
  });

  it('reads the same in SQL as in code for every status and deadline', async () => {
    const now = new Date('2026-06-01T00:00:00Z');
    const at = { none: null, past: new Date(now.getTime() - 1), now, future: new Date(now.getTime() + 1) };
    const cases = CONTRACT_STATUSES.flatMap((status) =>
      Object.values(at).flatMap((expiresAt) => Object.values(at).map((pendingExpiresAt) => ({ status, expiresAt, pendingExpiresAt }))),
    );
    const values = cases.map(() => '(?::int, ?::text, ?::timestamptz, ?::timestamptz)').join(', ');
    const params = cases.flatMap((c, i) => [i, c.status, c.expiresAt?.toISOString() ?? null, c.pendingExpiresAt?.toISOString() ?? null]);
    const rows: { i: number; s: string }[] = await db().execute(
      `select i, ${EFFECTIVE_STATUS_SQL} as s from (values ${values}) as v(i, status, expires_at, pending_expires_at) order by i`,
      [...effectiveStatusParams(now.toISOString()), ...params],
    );
    expect(rows.map((r) => r.s)).toEqual(cases.map((c) => effectiveStatus(c, now)));
  });
});
