import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let a: string;
let b: string;

beforeAll(async () => {
  t = await createTestApp();
  a = (await t.company('Company A')).id;
  b = (await t.company('Company B')).id;
});
afterAll(async () => t?.close());

const prefixes = async (key: string, gql = false): Promise<string[]> => {
  if (gql) {
    const r = await t.gql('{ apiKeys { apiKeys { keyPrefix } } }', {}, { key });
    return r.body.data.apiKeys.apiKeys.map((k: { keyPrefix: string }) => k.keyPrefix);
  }
  const r = await t.call('GET', '/v1/api-keys', { key });
  expect(r.status).toBe(200);
  return r.body.map((k: { keyPrefix: string }) => k.keyPrefix);
};
const prefix = (key: string) => key.slice(0, 12);

describe('listing API keys', () => {
  it("shows a company-scoped key only keys it could itself have granted, never another company's or wider ones", async () => {
    const scopedAdmin = await t.keyWith({ [a]: ['apikeys.write', 'bookings.*', 'client.read'] });
    const aReader = await t.keyWith({ [a]: ['bookings.read'] });
    const aWidget = await t.keyWith({ [a]: ['client.read'] });
    const aWider = await t.keyWith({ [a]: ['bookings.read', 'payments.read'] });
    const bKey = await t.keyWith({ [b]: ['bookings.read'] });
    const bothKey = await t.keyWith({ [a]: ['bookings.read'], [b]: ['bookings.read'] });
    const global = await t.keyWith({ '*': ['bookings.read'] });

    for (const gql of [false, true]) {
      const seen = await prefixes(scopedAdmin, gql);
      for (const k of [scopedAdmin, aReader, aWidget]) expect(seen).toContain(prefix(k));
      for (const k of [aWider, bKey, bothKey, global, t.adminKey]) expect(seen).not.toContain(prefix(k));
    }
    // The merchant's all-powerful key still sees every key.
    const all = await prefixes(t.adminKey);
    for (const k of [scopedAdmin, aReader, aWidget, aWider, bKey, bothKey, global, t.adminKey]) expect(all).toContain(prefix(k));
  });

  it('shows keys of companies where the caller holds apikeys.write only', async () => {
    // bookings.* on both companies, but apikeys.write only on A: B's keys stay hidden.
    const caller = await t.keyWith({ [a]: ['apikeys.write', 'bookings.*'], [b]: ['bookings.*'] });
    const bKey = await t.keyWith({ [b]: ['bookings.read'] });
    const aKey = await t.keyWith({ [a]: ['bookings.read'] });
    const seen = await prefixes(caller);
    expect(seen).toContain(prefix(aKey));
    expect(seen).not.toContain(prefix(bKey));
  });

  it('needs apikeys.write', async () => {
    const r = await t.call('GET', '/v1/api-keys', { key: await t.keyWith({ [a]: ['bookings.read'] }) });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('forbidden');
  });
});

describe('revoking API keys', () => {
  it('is limited to the keys the caller could have granted', async () => {
    const caller = await t.keyWith({ [a]: ['apikeys.write', 'bookings.*'] });
    const mine = await t.keyWith({ [a]: ['bookings.read'] }, caller);
    const other = await t.keyWith({ [b]: [] });
    const ids = (await t.call('GET', '/v1/api-keys')).body as { id: string; keyPrefix: string }[];
    const idOf = (k: string) => ids.find((x) => x.keyPrefix === prefix(k))!.id;
    expect((await t.call('DELETE', `/v1/api-keys/${idOf(other)}`, { key: caller })).status).toBe(403);
    expect((await t.call('DELETE', `/v1/api-keys/${idOf(mine)}`, { key: caller })).status).toBe(200);
  });
});
