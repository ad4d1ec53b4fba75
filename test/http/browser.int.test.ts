import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestApp, TestClock, type TestApp } from '../helpers/app';
import { Shop } from '../helpers/bookings-fixtures';
import { configurePayments, SECRET } from '../helpers/payments-fixtures';

/**
 * The integrator's pages in a real browser (Debian's chromium, driven by playwright-core): the
 * API reference lists the operations, the GraphQL explorer runs a query with an API key, and the
 * test checkout page shows the amount and local time and its Pay button leads to the signed
 * redirect. Screenshots go to test-artifacts/browser/ (not committed). Without a Chromium
 * (CHROMIUM_PATH, or /usr/bin/chromium, which .ci/run installs) the suite says so and skips.
 */
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && existsSync(p));
const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'browser');
const describeIfChromium = CHROMIUM ? describe : describe.skip;
if (!CHROMIUM) console.warn('browser tests skipped: no Chromium (apt-get install chromium, or set CHROMIUM_PATH)');

describeIfChromium('in a real browser', () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const clock = new TestClock(Date.parse('2026-03-01T08:00:00Z'));

  beforeAll(async () => {
    t = await createTestApp({ clock, changeFeed: true });
    base = await t.listen();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The Content-Security-Policy violations a loaded page reports (as events) within `ms`. */
  const violationEvents = async (page: Page, ms: number): Promise<string[]> =>
    (await page.evaluate(
      `new Promise((resolve) => {
        const seen = [];
        document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective + ' ' + e.blockedURI));
        setTimeout(() => resolve(seen), ${ms});
      })`,
    )) as string[];

  /** Content-Security-Policy violations a page reports: console errors while loading, events after. */
  const watchCsp = (page: Page): (() => Promise<string[]>) => {
    const seen: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Content-Security-Policy/i.test(m.text())) seen.push(`console: ${m.text()}`);
    });
    return async () => [...seen, ...(await violationEvents(page, 200))];
  };

  it('the API reference at /docs/api lists the operations, under its Content-Security-Policy without a violation', async () => {
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:')) external.push(r.url());
    });
    const violations = watchCsp(page);
    const answer = await page.goto(`${base}/docs/api`);
    // the policy allows this server only, and does not upgrade plain http (which breaks the page on a LAN address)
    const csp = (await answer!.allHeaders())['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/upgrade-insecure-requests|https:|swagger\.io|unsafe-eval/);
    // Swagger UI renders 160 operations in the page: tens of seconds on a loaded machine
    await page.waitForSelector('.opblock-summary', { timeout: 90_000 });
    expect(await page.locator('.opblock').count()).toBeGreaterThan(60);
    expect(await page.textContent('body')).toContain('List available times');
    // open an operation and its schemas: more of the UI renders
    await page.locator('.opblock-summary').first().click();
    await page.waitForSelector('.opblock-body', { timeout: 20_000 });
    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: false });
    expect(external).toEqual([]);
    expect(await violations()).toEqual([]);
    await page.close();
  });

  it('the guides at /docs render with their stylesheet, nothing from elsewhere and no Content-Security-Policy violation', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`external request ${r.url()}`);
    });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${base}/docs`);
    // evaluated in the page (this project compiles without the DOM types)
    const guides = (await page.evaluate("[...document.querySelectorAll('ul.pages a')].map((a) => a.getAttribute('href'))")) as string[];
    expect(guides).toEqual(expect.arrayContaining(['/docs/getting-started', '/docs/concepts', '/docs/permissions']));
    for (const url of ['/docs', ...guides.filter((g) => g.startsWith('/docs/') && !g.startsWith('/docs/api')), '/readme']) {
      await page.goto(`${base}${url}`);
      // a violation after loading is reported to the page as an event (during loading, on the console)
      problems.push(...(await violationEvents(page, 100)).map((v) => `${url}: ${v}`));
      // the stylesheet applied: the navigation bar has its colour
      const nav = (await page.evaluate("getComputedStyle(document.querySelector('nav')).backgroundColor")) as string;
      if (nav !== 'rgb(31, 78, 121)') problems.push(`${url}: stylesheet not applied (${nav})`);
    }
    await page.goto(`${base}/docs/getting-started`);
    await page.screenshot({ path: join(ARTIFACTS, 'guide.png'), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the GraphQL explorer runs a query with an API key header, without a CSP violation, and keeps the header across reloads', async () => {
    await t.company('Browser Co');
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith('data:')) external.push(r.url());
    });
    const violations = watchCsp(page);
    const query = encodeURIComponent('{ companies { companies { name } } }');
    const headers = encodeURIComponent(JSON.stringify({ 'X-API-Key': t.adminKey }));
    await page.goto(`${base}/graphql?query=${query}&headers=${headers}`, { headers: undefined } as never);
    await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
    await page.click('.graphiql-execute-button');
    await page.waitForFunction("document.querySelector('.result-window')?.textContent?.includes('Browser Co')", undefined, {
      timeout: 20_000,
    });
    await page.screenshot({ path: join(ARTIFACTS, 'graphql-explorer.png') });
    expect(external).toEqual([]);
    expect(await violations()).toEqual([]);
    // the headers survive a reload (kept in localStorage), so the key need not be typed again: the
    // explorer opened again (with a query, without headers) runs it with the key
    await page.goto(`${base}/graphql?query=${encodeURIComponent('{ companies { total companies { name } } }')}`);
    await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
    expect(await page.evaluate("localStorage.getItem('booking-api:explorer-headers')")).toContain(t.adminKey);
    await page.click('.graphiql-execute-button');
    await page.waitForFunction("document.querySelector('.result-window')?.textContent?.includes('Browser Co')", undefined, {
      timeout: 20_000,
    });
    await page.close();
    // a browser that has not been here: the page says where the headers are kept
    const fresh = await browser.newContext();
    const first = await fresh.newPage();
    await first.goto(`${base}/graphql`);
    await first.waitForSelector('.graphiql-query-editor', { timeout: 20_000 });
    expect(await first.textContent('.graphiql-query-editor')).toContain("kept in this browser's localStorage");
    await fresh.close();
  });

  it('the GraphQL explorer runs a subscription over WebSocket and shows its events', async () => {
    const shop = await Shop.open(t, 'Live shop', 'UTC');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' });
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith(base.replace('http', 'ws')) && !r.url().startsWith('data:'))
        external.push(r.url());
    });
    const query = encodeURIComponent(`subscription { bookingChanged(companyID: "${shop.companyId}") { type booking { startTime } } }`);
    const headers = encodeURIComponent(JSON.stringify({ 'X-API-Key': t.adminKey }));
    await page.goto(`${base}/graphql?query=${query}&headers=${headers}`, { headers: undefined } as never);
    await page.waitForSelector('.graphiql-execute-button', { timeout: 20_000 });
    const metrics = async () => (await t.call('GET', '/metrics')).text;
    const running = async () => Number(/^graphql_subscriptions_running (\d+)$/m.exec(await metrics())?.[1] ?? 0);
    await page.click('.graphiql-execute-button');
    for (let i = 0; i < 200 && (await running()) < 1; i++) await new Promise((r) => setTimeout(r, 50));
    const booked = await t.call('POST', `/v1/companies/${shop.companyId}/bookings`, {
      body: { serviceID: sid, resourceID: rids[0], startTime: '2026-03-05T10:00:00Z' },
    });
    expect(booked.status).toBe(200);
    await page.waitForFunction("document.querySelector('.result-window')?.textContent?.includes('created')", undefined, {
      timeout: 20_000,
    });
    expect(await page.textContent('.result-window')).toContain('2026-03-05T10:00:00Z');
    await page.screenshot({ path: join(ARTIFACTS, 'graphql-explorer-subscription.png') });
    expect(external).toEqual([]);
    await page.close();
  });

  it('a widget on another origin calls the API when CORS_ORIGINS allows it, and is blocked when it does not', async () => {
    const open = await createTestApp({ config: { corsOrigins: ['*'] } });
    try {
      const openBase = await open.listen();
      const page = await browser.newPage();
      // the page's origin is localhost:<port>; the API is called on 127.0.0.1:<port>, another origin
      await page.goto(`${base.replace('127.0.0.1', 'localhost')}/health`);
      const call = (api: string, key: string) =>
        page.evaluate(
          async ([url, apiKey]) => {
            try {
              const r = await fetch(`${url}/graphql`, {
                method: 'POST',
                headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
                body: JSON.stringify({ query: '{ __typename }' }),
              });
              return `${r.status} ${await r.text()}`;
            } catch (err) {
              return `blocked: ${String(err)}`;
            }
          },
          [api, key],
        );
      expect(await call(openBase, open.adminKey)).toMatch(/^200 .*"__typename":"Query"/);
      expect(await call(base, t.adminKey)).toMatch(/^blocked/);
      await page.close();
    } finally {
      await open.close();
    }
  });

  it('the test checkout page shows the amount and local time, and Pay leads to the signed redirect', async () => {
    const shop = await Shop.open(t, 'Riga salon', 'Europe/Riga');
    const { sid, rids } = await shop.bookable('fixed', { duration: 'PT1H' });
    await shop.price(sid, 'fixed', 2500);
    const success = `${base}/health?booking={{.ItemID}}&amount={{.Amount}}`;
    expect((await configurePayments(t, shop.companyId, { success, templating: true, secret: SECRET })).status).toBe(200);
    const token = await shop.login('browser@example.com', t.adminKey);
    const booked = await t.call('POST', '/v1/client/bookings', {
      token,
      body: { companyID: shop.companyId, serviceID: sid, resourceID: rids[0], startTime: '2026-03-02T09:00:00Z' },
    });
    expect(booked.status).toBe(200);
    const page = await browser.newPage();
    await page.goto(`${base}${new URL(booked.body.paymentURL).pathname}`);
    const text = await page.textContent('body');
    expect(text).toContain('25.00 EUR');
    expect(text).toContain('Mon, 2 Mar 2026, 11:00 (Europe/Riga)');
    await page.screenshot({ path: join(ARTIFACTS, 'checkout.png') });
    await Promise.all([page.waitForURL(/\/health\?/), page.click('button.pay')]);
    const landed = new URL(page.url());
    expect(landed.searchParams.get('booking')).toBe(booked.body.id);
    expect(landed.searchParams.get('amount')).toBe('2500');
    // the redirect verifies with the company's signing secret
    const verified = await t.call('GET', `/v1/companies/${shop.companyId}/payments/verify-signature${landed.search}`);
    expect(verified.status).toBe(200);
    expect(verified.body.valid).toBe(true);
    expect((await shop.get(booked.body.id)).body.status).toBe('confirmed');
    await page.close();
  });
});
