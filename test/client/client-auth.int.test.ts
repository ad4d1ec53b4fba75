import { createHash } from 'node:crypto';
import { decodeJwt, SignJWT } from 'jose';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';

let t: TestApp;
let clock: TestClock;
let cid: string;
let loginKey: string;
const START = Date.parse('2026-11-23T08:00:00Z');

beforeAll(async () => {
  clock = new TestClock(START);
  t = await createTestApp({ clock });
  cid = (await t.company('Token Co')).id;
  loginKey = await t.keyWith({ [cid]: ['client.login'] });
});
afterAll(async () => t?.close());

let seq = 0;
const login = (body: Record<string, unknown> = {}, key = loginKey) => {
  seq++;
  return t.call('POST', '/v1/client/auth/login', {
    key,
    body: { companyID: cid, email: `c${seq}@example.com`, externalUserID: `ext-${seq}`, ...body },
  });
};
const refresh = (refreshToken: string) =>
  t.call('POST', '/v1/client/auth/refresh', { key: null, headers: { authorization: `Bearer ${refreshToken}` } });
const profile = (token: string) => t.call('GET', '/v1/client/profile', { token });

describe('client authorization', () => {
  it('returns a token pair and creates the client', async () => {
    const r = await login({ externalUserID: 'alice', email: 'Alice@Example.com', firstName: 'Alice', metaData: { src: 'app' } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresAt: '2026-11-23T08:15:00Z',
      expiresIn: 900,
    });
    const claims = decodeJwt(r.body.accessToken);
    expect(claims).toMatchObject({ cid, iat: START / 1000, exp: START / 1000 + 900 });
    const me = await profile(r.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: claims.sub,
      companyID: cid,
      externalUserID: 'alice',
      email: 'Alice@Example.com',
      firstName: 'Alice',
      metaData: { src: 'app' },
      state: 'active',
    });
  });

  it('gives every access token its own id: two logins and a refresh in the same second differ, and all are valid', async () => {
    clock.set(START + 400);
    const a = await login({ externalUserID: 'twin' });
    const b = await login({ externalUserID: 'twin' });
    const c = await refresh(a.body.refreshToken);
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    const tokens = [a.body.accessToken, b.body.accessToken, c.body.accessToken];
    expect(new Set(tokens).size).toBe(3);
    const claims = tokens.map((x) => decodeJwt(x));
    expect(new Set(claims.map((x) => x.sub)).size).toBe(1);
    expect(new Set(claims.map((x) => x.iat)).size).toBe(1);
    expect(new Set(claims.map((x) => x.jti)).size).toBe(3);
    for (const token of tokens) expect((await profile(token)).status).toBe(200);
    clock.set(START);
  });

  it('upserts by externalUserID: same client, email and names updated, metaData kept', async () => {
    const a = await login({ externalUserID: 'bob', email: 'bob@example.com', firstName: 'Bob', lastName: 'Old', metaData: { v: 1 } });
    const b = await login({ externalUserID: 'bob', email: 'robert@example.com', firstName: 'Robert', metaData: { v: 2 } });
    expect(b.status).toBe(200);
    expect(decodeJwt(b.body.accessToken).sub).toBe(decodeJwt(a.body.accessToken).sub);
    const me = (await profile(b.body.accessToken)).body;
    expect(me).toMatchObject({ email: 'robert@example.com', firstName: 'Robert', lastName: 'Old', metaData: { v: 1 } });
    const list = await t.call('GET', `/v1/companies/${cid}/clients/search`, { query: { externalUserID: 'bob' } });
    expect(list.body).toHaveLength(1);
  });

  it('validates the body', async () => {
    for (const body of [{ companyID: 'x' }, { email: 'nope' }, { externalUserID: '' }, { metaData: 'x' }, { firstName: 7 }]) {
      const r = await login(body);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_request');
    }
    const missing = await t.call('POST', '/v1/client/auth/login', { key: loginKey, body: { companyID: cid, email: 'a@example.com' } });
    expect(missing.status).toBe(400);
  });

  it('needs client.login for the company: a widget key (client.read, client.create) cannot take over a client', async () => {
    await login({ externalUserID: 'victim', email: 'victim@example.com' });
    const widget = await t.keyWith({ [cid]: ['client.read', 'client.create'] });
    const r = await login({ externalUserID: 'victim', email: 'attacker@example.com' }, widget);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 'forbidden', message: expect.stringContaining('client.login') });
    const found = await t.call('GET', `/v1/companies/${cid}/clients/search`, { query: { externalUserID: 'victim' } });
    expect(found.body).toEqual([expect.objectContaining({ email: 'victim@example.com' })]);
    expect((await login({}, await t.keyWith({ [cid]: ['client.*'] }))).status).toBe(200);
    expect((await login({}, await t.keyWith({ '*': ['client.login'] }))).status).toBe(200);
    expect((await login({}, await t.keyWith({ [cid]: ['client.read', 'clients.*'] }))).status).toBe(403);
    expect((await login({}, await t.newMerchant())).status).toBe(403);
    expect((await login({ companyID: '5b1f3c1e-0000-4000-8000-000000000000' })).status).toBe(404);
    const other = (await t.company('Other Co')).id;
    expect((await login({ companyID: other })).status).toBe(403);
    expect(
      (await t.call('POST', '/v1/client/auth/login', { key: null, body: { companyID: cid, email: 'a@example.com', externalUserID: 'z' } }))
        .status,
    ).toBe(401);
  });

  it('refuses a blocked client at login, refresh and with a still-valid access token', async () => {
    const r = await login({ externalUserID: 'carol' });
    const id = decodeJwt(r.body.accessToken).sub;
    await t.call('PATCH', `/v1/companies/${cid}/clients/${id}`, { body: { state: 'blocked' } });
    const again = await login({ externalUserID: 'carol', firstName: 'Changed' });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe('forbidden');
    expect((await profile(r.body.accessToken)).status).toBe(403);
    expect((await refresh(r.body.refreshToken)).status).toBe(401);
    await t.call('PATCH', `/v1/companies/${cid}/clients/${id}`, { body: { state: 'active' } });
    const back = await t.call('GET', `/v1/companies/${cid}/clients/${id}`);
    expect(back.body.firstName).toBeNull();
    expect((await profile(r.body.accessToken)).status).toBe(200);
    // Blocking revoked the refresh tokens; unblocking does not revive them.
    expect((await refresh(r.body.refreshToken)).status).toBe(401);
    expect((await login({ externalUserID: 'carol' })).status).toBe(200);
  });

  it('refuses refresh with 403 while the client is blocked', async () => {
    const r = await login({ externalUserID: 'dave' });
    const id = decodeJwt(r.body.accessToken).sub;
    // Blocked directly in the database, as if by a concurrent request, so that the token itself is not revoked.
    await t.deps.orm.em.getConnection().execute(`update client set state = 'blocked' where id = ?`, [id]);
    expect((await refresh(r.body.refreshToken)).status).toBe(403);
  });
});

describe('access tokens', () => {
  it('expire after 900 s on the injected clock', async () => {
    const r = await login();
    clock.advance(899_000);
    expect((await profile(r.body.accessToken)).status).toBe(200);
    clock.advance(2_000);
    const late = await profile(r.body.accessToken);
    expect(late.status).toBe(401);
    expect(late.body.code).toBe('unauthorized');
  });

  it('refuses forged, tampered and foreign tokens', async () => {
    const r = await login();
    const [h, p, s] = r.body.accessToken.split('.');
    const other = decodeJwt(r.body.accessToken);
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...other, sub: '5b1f3c1e-0000-4000-8000-000000000000' })).toString('base64url')}.${s}`;
    expect((await profile(tampered)).status).toBe(401);
    const forged = await new SignJWT({ cid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(other.sub))
      .setAudience('client')
      .setExpirationTime(Math.floor(clock.now() / 1000) + 60)
      .sign(new TextEncoder().encode('another-secret-0123456789abcdefghijkl'));
    expect((await profile(forged)).status).toBe(401);
    expect((await profile(`${h}.${p}`)).status).toBe(401);
    expect((await profile('garbage')).status).toBe(401);
    expect((await t.call('GET', '/v1/client/profile', { key: null })).status).toBe(401);
    expect((await t.call('GET', '/v1/client/profile')).status).toBe(401);
  });

  it('shows each client only its own profile', async () => {
    const a = await login({ externalUserID: 'erin' });
    const b = await login({ externalUserID: 'frank' });
    expect((await profile(a.body.accessToken)).body.externalUserID).toBe('erin');
    expect((await profile(b.body.accessToken)).body.externalUserID).toBe('frank');
  });

  it('cannot call merchant endpoints (403: valid credentials of the wrong kind)', async () => {
    const r = await login();
    const token = r.body.accessToken;
    for (const [m, url] of [
      ['GET', '/v1/companies'],
      ['GET', `/v1/companies/${cid}`],
      ['GET', `/v1/companies/${cid}/clients`],
      ['POST', '/v1/client/auth/login'],
    ] as const) {
      const res = await t.call(m, url, {
        token,
        body: m === 'POST' ? { companyID: cid, email: 'x@example.com', externalUserID: 'x' } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
    const gql = await t.gql('{ companies { total } }', {}, { token });
    expect(gql.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('refresh tokens', () => {
  it('rotate: the new pair works and can itself be exchanged', async () => {
    const first = (await login()).body;
    clock.advance(60_000);
    const second = await refresh(first.refreshToken);
    expect(second.status).toBe(200);
    expect(second.body.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwt(second.body.accessToken).sub).toBe(decodeJwt(first.accessToken).sub);
    expect(Date.parse(second.body.expiresAt)).toBe(Math.floor(clock.now() / 1000) * 1000 + 900_000);
    expect((await profile(second.body.accessToken)).status).toBe(200);
    const third = await refresh(second.body.refreshToken);
    expect(third.status).toBe(200);
    expect((await profile(third.body.accessToken)).status).toBe(200);
  });

  it('revoke the whole family when a spent token is replayed', async () => {
    const first = (await login()).body;
    const second = (await refresh(first.refreshToken)).body;
    const replay = await refresh(first.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('unauthorized');
    expect((await refresh(second.refreshToken)).status).toBe(401);
    // Another login of the same client is another family and keeps working.
    const other = (await login({ externalUserID: `ext-${seq}` })).body;
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('answers a malformed JSON body with 400 invalid_request, a status the route declares', async () => {
    const r = await t.call('POST', '/v1/client/auth/refresh', { key: null, body: '{"a":', headers: { authorization: 'Bearer x' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
  });

  it('refuses missing, unknown, access-token and expired refresh tokens', async () => {
    expect((await t.call('POST', '/v1/client/auth/refresh', { key: null })).status).toBe(401);
    expect((await refresh('not-a-real-token')).status).toBe(401);
    const pair = (await login()).body;
    expect((await refresh(pair.accessToken)).status).toBe(401);
    clock.advance(30 * 24 * 3600 * 1000 + 1000);
    expect((await refresh(pair.refreshToken)).status).toBe(401);
  });

  it('allow exactly one of two concurrent exchanges of the same token', async () => {
    const pair = (await login()).body;
    const results = await Promise.all([refresh(pair.refreshToken), refresh(pair.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('are stored only as hashes; access tokens are not stored at all', async () => {
    const pair = (await login({ externalUserID: 'stored' })).body;
    const rotated = (await refresh(pair.refreshToken)).body;
    const conn = t.deps.orm.em.getConnection();
    const rows: { j: string }[] = await conn.execute(`select row_to_json(r)::text as j from client_refresh_token r`);
    const clients: { j: string }[] = await conn.execute(`select row_to_json(c)::text as j from client c`);
    const dump = [...rows, ...clients].map((r) => r.j).join('\n');
    for (const secret of [pair.refreshToken, pair.accessToken, rotated.refreshToken, rotated.accessToken])
      expect(dump).not.toContain(secret);
    const hash = createHash('sha256').update(rotated.refreshToken).digest('hex');
    const found = await conn.execute(`select used_at, family_id from client_refresh_token where token_hash = ?`, [hash]);
    expect(found).toHaveLength(1);
    expect(found[0].used_at).toBeNull();
  });
});

describe('client auth over GraphQL', () => {
  it('logs in, reads the profile and rotates tokens', async () => {
    const q = `mutation($i: ClientLoginInput!) { clientLogin(input: $i) { accessToken refreshToken expiresAt expiresIn } }`;
    const r = await t.gql(
      q,
      { i: { companyID: cid, email: 'gql@example.com', externalUserID: 'gql-user', firstName: 'G' } },
      { key: loginKey },
    );
    expect(r.body.errors).toBeUndefined();
    const pair = r.body.data.clientLogin;
    expect(pair.expiresIn).toBe(900);
    const me = await t.gql('{ clientProfile { id externalUserID firstName state } }', {}, { token: pair.accessToken });
    expect(me.body.data.clientProfile).toMatchObject({ externalUserID: 'gql-user', firstName: 'G', state: 'active' });
    const m = `mutation($t: String!) { refreshClientTokens(refreshToken: $t) { accessToken refreshToken } }`;
    const next = await t.gql(m, { t: pair.refreshToken }, { key: null });
    expect(next.body.data.refreshClientTokens.refreshToken).toEqual(expect.any(String));
    const replay = await t.gql(m, { t: pair.refreshToken }, { key: null });
    expect(replay.body.errors[0].extensions.code).toBe('unauthorized');
    const noToken = await t.gql('{ clientProfile { id } }', {}, { key: null });
    expect(noToken.body.errors[0].extensions.code).toBe('unauthorized');
    const withKey = await t.gql('{ clientProfile { id } }', {}, { key: loginKey });
    expect(withKey.body.errors[0].extensions.code).toBe('unauthorized');
  });
  it('needs client.login for clientLogin', async () => {
    const q = `mutation($i: ClientLoginInput!) { clientLogin(input: $i) { accessToken } }`;
    const r = await t.gql(
      q,
      { i: { companyID: cid, email: 'x@example.com', externalUserID: 'x' } },
      { key: await t.keyWith({ [cid]: ['clients.read'] }) },
    );
    expect(r.body.errors[0].extensions.code).toBe('forbidden');
    const widget = await t.gql(
      q,
      { i: { companyID: cid, email: 'x@example.com', externalUserID: 'x' } },
      { key: await t.keyWith({ [cid]: ['client.read', 'client.create'] }) },
    );
    expect(widget.body.errors[0].extensions.code).toBe('forbidden');
  });
});
