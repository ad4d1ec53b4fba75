import { auditActorOf, auditScope, auditScopeArg, runAudited, systemScope } from './audit';

const clock = { now: () => Date.parse('2026-03-01T10:00:00Z') };

describe('audit scope', () => {
  it('gives the database nothing outside a scope', () => {
    expect(auditScope()).toBeUndefined();
    expect(auditScopeArg()).toBeNull();
  });
  it("carries the actor through async work, as audit_begin's argument", async () => {
    const scope = {
      actor: auditActorOf({ kind: 'merchant', merchantId: 'm', apiKeyId: 'k', apiKeyName: 'Ops', permissions: {} }),
      merchantId: 'm',
      requestId: 'r1',
      clock,
    };
    const arg = await runAudited(scope, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return auditScopeArg();
    });
    expect(JSON.parse(arg!)).toEqual({
      actorType: 'api_key',
      actorId: 'k',
      actorName: 'Ops',
      merchantId: 'm',
      requestId: 'r1',
      at: '2026-03-01T10:00:00.000Z',
    });
    expect(auditScope()).toBeUndefined();
  });
  it('names clients, unauthenticated requests and background work', () => {
    expect(auditActorOf({ kind: 'client', clientId: 'cl', companyId: 'c' })).toEqual({ type: 'client', id: 'cl', name: null });
    expect(auditActorOf(null)).toEqual({ type: 'system', id: 'public', name: 'unauthenticated request' });
    expect(systemScope('payment', clock)).toMatchObject({ actor: { type: 'system', id: 'payment' }, requestId: null });
    expect(JSON.parse(auditScopeArg(systemScope('payment', clock))!)).toMatchObject({
      actorType: 'system',
      actorId: 'payment',
      requestId: null,
    });
  });
});
