import { createTestApp, type TestApp } from '../helpers/app';

/** The integrator's pages: every asset from this server, nothing from elsewhere. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const get = (url: string, accept = 'text/html') => t.app.inject({ method: 'GET', url, headers: { accept } });
const external = /(src|href)="(https?:)?\/\/[^"]*"/;

describe('API reference, GraphQL explorer and index', () => {
  it('/docs/api serves the API reference with its own assets', async () => {
    const page = await get('/docs/api/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(external);
    for (const src of [...page.body.matchAll(/(?:src|href)="\.?\/?([^"]+)"/g)].map((m) => m[1])) {
      const url = src.startsWith('/') ? src : `/docs/api/${src.replace(/^\.\//, '')}`;
      expect({ url, status: (await get(url, '*/*')).statusCode }).toEqual({ url, status: 200 });
    }
  });

  it('/graphql in a browser serves the explorer, with every script and style from this server', async () => {
    const page = await get('/graphql');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).not.toMatch(external);
    const assets = [...page.body.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(6);
    for (const url of assets) {
      const r = await get(url, '*/*');
      expect({ url, status: r.statusCode }).toEqual({ url, status: 200 });
      expect(r.body.length).toBeGreaterThan(100);
    }
    expect((await get('/graphql/assets/..%2fpackage.json', '*/*')).statusCode).toBe(404);
  });

  it('/graphql stays the API for everything but a browser page view', async () => {
    const r = await t.app.inject({
      method: 'GET',
      url: '/graphql?query=%7B__typename%7D',
      headers: { accept: 'text/html, application/json', 'apollo-require-preflight': 'true' },
    });
    expect(JSON.parse(r.body).data.__typename).toBe('Query');
    const post = await t.gql('{ __typename }');
    expect(post.body.data.__typename).toBe('Query');
  });

  it('/ points to the guides, the reference, the explorer, the OpenAPI document, health and the README', async () => {
    const json = await get('/', 'application/json');
    expect(JSON.parse(json.body)).toMatchObject({
      docs: '/docs',
      reference: '/docs/api',
      graphql: '/graphql',
      openapi: '/v1/openapi.json',
      health: '/health',
      readme: '/readme',
    });
    const html = await get('/');
    for (const href of ['/docs', '/docs/api', '/graphql', '/v1/openapi.json', '/health', '/readme'])
      expect(html.body).toContain(`href="${href}"`);
    const readme = await get('/readme', '*/*');
    expect(readme.statusCode).toBe(200);
    expect(readme.body).toMatch(/^# Booking platform API/);
  });
});
