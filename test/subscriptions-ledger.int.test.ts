import { randomUUID } from 'node:crypto';
import { createTestApp, type TestApp } from './helpers/app';
import { Subscription } from '../src/modules/subscription/subscription.entity';

let t: TestApp;
let companyId: string;
beforeAll(async () => {
  t = await createTestApp();
  companyId = (await t.company('Ledger gym')).id;
});
afterAll(async () => t?.close());

const sql = async <T = any>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await t.deps.orm.em.fork().getConnection().execute(text, params)) as T[];

describe('subscription data model', () => {
  let subscriptionId: string;
  let contractId: string;
  let visitId: string;
  beforeAll(async () => {
    subscriptionId = randomUUID();
    const serviceId = randomUUID();
    await sql(`insert into subscription (id, company_id, title, service_ids) values (?, ?, 'Gym', ?::uuid[])`, [
      subscriptionId,
      companyId,
      `{${serviceId}}`,
    ]);
    contractId = randomUUID();
    await sql(`insert into subscription_contract (id, company_id, subscription_id, code, status) values (?, ?, ?, ?, 'active')`, [
      contractId,
      companyId,
      subscriptionId,
      `C-${contractId}`,
    ]);
    visitId = randomUUID();
    await sql(
      `insert into subscription_visit (id, company_id, contract_id, subscription_id, amount, transaction_type) values (?, ?, ?, ?, 3, 'ALLOCATION')`,
      [visitId, companyId, contractId, subscriptionId],
    );
  });

  it('reads uuid lists back as arrays through the entities', async () => {
    const em = t.deps.orm.em.fork();
    const s = await em.findOneOrFail(Subscription, { id: subscriptionId, companyId });
    expect(s.serviceIds).toHaveLength(1);
    expect(s.resourceIds).toEqual([]);
    expect(s.rollOverSettings).toEqual({ rollOverType: 'none', settings: {} });
  });

  it('refuses to update or delete a ledger entry', async () => {
    await expect(sql(`update subscription_visit set amount = 30 where id = ?`, [visitId])).rejects.toThrow(/append-only/);
    await expect(sql(`delete from subscription_visit where id = ?`, [visitId])).rejects.toThrow(/append-only/);
    expect((await sql(`select amount from subscription_visit where id = ?`, [visitId]))[0].amount).toBe(3);
  });

  it('refuses an unknown transaction type and a zero amount', async () => {
    const insert = (amount: number, type: string) =>
      sql(
        `insert into subscription_visit (id, company_id, contract_id, subscription_id, amount, transaction_type) values (?, ?, ?, ?, ?, ?)`,
        [randomUUID(), companyId, contractId, subscriptionId, amount, type],
      );
    await expect(insert(1, 'GIFT')).rejects.toThrow(/check/);
    await expect(insert(0, 'ADJUSTMENT')).rejects.toThrow(/check/);
  });
});
