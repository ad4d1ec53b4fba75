import { auditActorOf, auditChanges, auditInsert, auditScope, isSecretField, MASKED, runAudited, systemScope } from './audit';

const clock = { now: () => Date.parse('2026-03-01T10:00:00Z') };

describe('audit changes', () => {
  it('lists created, changed and deleted fields with before and after', () => {
    expect(auditChanges(null, { name: 'A', n: 1 })).toEqual({ name: { after: 'A' }, n: { after: 1 } });
    expect(auditChanges({ name: 'A', n: 1 }, null)).toEqual({ name: { before: 'A' }, n: { before: 1 } });
    expect(auditChanges({ name: 'A', n: 1, o: { a: 1 } }, { name: 'B', n: 1, o: { a: 1 } })).toEqual({ name: { before: 'A', after: 'B' } });
    expect(auditChanges({ o: { a: 1 } }, { o: { a: 2 } })).toEqual({ o: { before: { a: 1 }, after: { a: 2 } } });
  });
  it('compares dates by instant and writes them as ISO strings; skips updatedAt', () => {
    const d = new Date('2026-03-01T10:00:00Z');
    expect(auditChanges({ at: d, updatedAt: d }, { at: new Date(d.getTime()), updatedAt: new Date() })).toEqual({});
    expect(auditChanges(null, { at: d })).toEqual({ at: { after: '2026-03-01T10:00:00.000Z' } });
    expect(auditChanges(null, { at: new Date(NaN), missing: undefined })).toEqual({ at: { after: null }, missing: { after: null } });
  });
  it('limits itself to the fields named, and records file contents by size', () => {
    expect(auditChanges(null, { a: 1, b: 2 }, ['b'])).toEqual({ b: { after: 2 } });
    expect(auditChanges(null, { content: Buffer.from('abc') })).toEqual({ content: { after: '[3 bytes]' } });
  });
  it('masks secrets, tokens, passwords and key hashes, but shows that they were set or cleared', () => {
    for (const f of [
      'signingSecretEnc',
      'secret',
      'tokenHash',
      'accessToken',
      'password',
      'keyHash',
      'key_hash',
      'webhookSecret',
      'privateKey',
    ])
      expect(isSecretField(f)).toBe(true);
    for (const f of ['name', 'status', 'keyPrefix', 'successRedirectUrl', 'metaData']) expect(isSecretField(f)).toBe(false);
    expect(auditChanges({ signingSecretEnc: 'old' }, { signingSecretEnc: 'new' })).toEqual({
      signingSecretEnc: { before: MASKED, after: MASKED },
    });
    expect(auditChanges({ signingSecretEnc: 'old' }, { signingSecretEnc: null })).toEqual({
      signingSecretEnc: { before: MASKED, after: null },
    });
  });
});

describe('audit scope', () => {
  it('records nothing outside a scope', () => {
    expect(auditScope()).toBeUndefined();
    expect(auditInsert([{ companyId: 'c', action: 'create', recordType: 'x', recordId: '1', changes: {} }])).toBeNull();
  });
  it('carries the actor through async work and builds one insert for several records', async () => {
    const scope = {
      actor: auditActorOf({ kind: 'merchant', merchantId: 'm', apiKeyId: 'k', apiKeyName: 'Ops', permissions: {} }),
      merchantId: 'm',
      requestId: 'r1',
      clock,
    };
    const q = await runAudited(scope, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return auditInsert([
        { companyId: 'c', action: 'create', recordType: 'booking', recordId: '1', changes: { a: { after: 1 } } },
        { companyId: 'c', action: 'status', recordType: 'booking', recordId: '2', changes: {} },
      ]);
    });
    expect(q!.sql).toMatch(/^insert into audit_entry \(.+\) values \(.+\), \(.+\)$/);
    expect(q!.params).toHaveLength(24);
    expect(q!.params.slice(1, 12)).toEqual([
      'c',
      'm',
      'api_key',
      'k',
      'Ops',
      'create',
      'booking',
      '1',
      '{"a":{"after":1}}',
      'r1',
      '2026-03-01T10:00:00.000Z',
    ]);
    expect(auditScope()).toBeUndefined();
    expect(auditInsert([])).toBeNull();
  });
  it('names clients, unauthenticated requests and background work', () => {
    expect(auditActorOf({ kind: 'client', clientId: 'cl', companyId: 'c' })).toEqual({ type: 'client', id: 'cl', name: null });
    expect(auditActorOf(null)).toEqual({ type: 'system', id: 'public', name: 'unauthenticated request' });
    expect(systemScope('payment', clock)).toMatchObject({ actor: { type: 'system', id: 'payment' }, requestId: null });
  });
});
