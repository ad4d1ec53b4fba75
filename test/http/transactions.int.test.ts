import { IsolationLevel } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { createCtx, loader, systemCtx, type Ctx } from '../../src/kernel/context';
import { inTransaction } from '../../src/kernel/transaction';
import { auditActorOf, runAudited, systemScope } from '../../src/kernel/audit';

/** inTransaction (src/kernel/transaction.ts): the context carries the transaction. */

let t: TestApp;
let s: Shop;
const clock = new TestClock(Date.parse('2026-04-01T08:00:00Z'));

beforeAll(async () => {
  t = await createTestApp({ clock });
  s = await Shop.open(t, 'Transactions');
});
afterAll(async () => t?.close());

const merchant = { kind: 'merchant' as const, merchantId: '00000000-0000-4000-8000-0000000000aa', apiKeyId: 'key-tx', permissions: {} };
const requestCtx = (requestId = 'req-tx') => createCtx(t.deps, merchant, requestId, t.deps.log);
const nameOf = async (id: string) =>
  (await systemCtx(t.deps, 'test').em.execute<{ name: string }[]>('select name from resource where id = ?', [id]))[0].name;
const rename = (ctx: Ctx, id: string, name: string) =>
  ctx.em.execute('update resource set name = ? where company_id = ? and id = ?', [name, s.companyId, id], 'run');

describe('inTransaction', () => {
  it("hands fn the request's context with the transaction's EntityManager and fresh loaders", async () => {
    const ctx = requestCtx();
    const outside = loader(ctx, 'probe', () => new DataLoader<string, string>(async (keys) => keys.map(String)));
    ctx.companies.set('checked', {});
    const seen = await inTransaction(ctx, async (tx) => {
      expect(tx).not.toBe(ctx);
      expect(tx.em).not.toBe(ctx.em);
      expect(tx.em.isInTransaction()).toBe(true);
      expect(ctx.em.isInTransaction()).toBe(false);
      for (const field of ['actor', 'now', 'deps', 'requestId', 'log'] as const) expect(tx[field]).toBe(ctx[field]);
      expect(tx.companies).toBe(ctx.companies);
      expect(tx.loaders.size).toBe(0);
      expect(loader(tx, 'probe', () => new DataLoader<string, string>(async (keys) => keys.map(String)))).not.toBe(outside);
      return 'answer';
    });
    expect(seen).toBe('answer');
  });

  it('commits when fn resolves and rolls back everything when it throws', async () => {
    const rid = await s.resource('Before');
    await inTransaction(requestCtx(), (tx) => rename(tx, rid, 'Committed'));
    expect(await nameOf(rid)).toBe('Committed');
    await expect(
      inTransaction(requestCtx(), async (tx) => {
        await rename(tx, rid, 'Rolled back');
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await nameOf(rid)).toBe('Committed');
  });

  it('joins the running transaction when nested (no savepoint), and takes a savepoint only when asked', async () => {
    const rid = await s.resource('Nested');
    await inTransaction(requestCtx(), async (tx) => {
      const joined = await inTransaction(tx, async (inner) => inner);
      expect(joined).toBe(tx);
      await rename(tx, rid, 'Outer');
      // a failure inside a joined call is the outer transaction's: caught here, its write stays
      await inTransaction(tx, async (inner) => {
        await rename(inner, rid, 'Joined');
        throw new Error('inner');
      }).catch(() => undefined);
      expect(await nameOf(rid)).toBe('Nested'); // nothing committed yet
      // with a savepoint, only the nested writes roll back
      await inTransaction(
        tx,
        async (inner) => {
          expect(inner.em).not.toBe(tx.em);
          await rename(inner, rid, 'Savepoint');
          throw new Error('savepoint');
        },
        { savepoint: true },
      ).catch(() => undefined);
    });
    expect(await nameOf(rid)).toBe('Joined');
  });

  it('passes an isolation level to a new transaction', async () => {
    const level = await inTransaction(
      requestCtx(),
      async (tx) => (await tx.em.execute<{ l: string }[]>("select current_setting('transaction_isolation') as l"))[0].l,
      { isolationLevel: IsolationLevel.SERIALIZABLE },
    );
    expect(level).toBe('serializable');
  });

  it("records every write inside with the scope's actor and request id", async () => {
    const rid = await s.resource('Audited');
    const ctx = requestCtx('req-tx-audit');
    const scope = { actor: auditActorOf(ctx.actor), merchantId: merchant.merchantId, requestId: ctx.requestId, clock };
    await runAudited(scope, () => inTransaction(ctx, (tx) => rename(tx, rid, 'Audited twice')));
    const [entry] = await systemCtx(t.deps, 'test').em.execute<{ actor_type: string; actor_id: string; request_id: string }[]>(
      `select actor_type, actor_id, request_id from audit_entry where record_id = ? and action = 'update' order by seq desc limit 1`,
      [rid],
    );
    expect(entry).toEqual({ actor_type: 'api_key', actor_id: 'key-tx', request_id: 'req-tx-audit' });
  });
});

describe('systemCtx', () => {
  it('is a context without an actor, named after its work, whose writes in a worker scope are the system', async () => {
    const ctx = systemCtx(t.deps, 'sweeper');
    expect([ctx.actor, ctx.requestId, ctx.deps === t.deps]).toEqual([null, 'sweeper', true]);
    expect(ctx.now.getTime()).toBe(clock.now());
    expect(systemCtx(t.deps, 'sweeper').em).not.toBe(ctx.em);
    const rid = await s.resource('Swept');
    await runAudited(systemScope('sweeper', clock), () => inTransaction(ctx, (tx) => rename(tx, rid, 'Swept once')));
    const [entry] = await ctx.em.execute<{ actor_type: string; actor_id: string }[]>(
      `select actor_type, actor_id from audit_entry where record_id = ? and action = 'update' order by seq desc limit 1`,
      [rid],
    );
    expect(entry).toEqual({ actor_type: 'system', actor_id: 'sweeper' });
  });
});
