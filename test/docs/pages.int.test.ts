import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * The guides in a browser: /docs links every guide and design note, each renders as HTML (not
 * Markdown) with nothing but this server's stylesheet, under a Content-Security-Policy that
 * allows nothing else, and every link on every page leads somewhere: another page, a heading
 * of it, the API reference or the explorer.
 */

const ROOT = join(__dirname, '..', '..');
const names = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));
const PAGES = ['/docs', '/readme', ...names('docs').map((n) => `/docs/${n}`), ...names('docs/design').map((n) => `/docs/design/${n}`)];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const get = (url: string, accept = 'text/html') => t.app.inject({ method: 'GET', url, headers: { accept } });
const attrs = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((m) => m[1].replace(/&amp;/g, '&'));

describe('/docs', () => {
  it('links every guide and every design note, the REST reference and the GraphQL explorer', async () => {
    const page = await get('/docs');
    expect(page.statusCode).toBe(200);
    const links = attrs(page.body, 'href');
    for (const url of [...PAGES.filter((p) => p !== '/docs'), '/docs/api', '/graphql']) expect(links).toContain(url);
  });

  it.each(PAGES)('%s is HTML rendered from the Markdown, with no script, no inline style and nothing from elsewhere', async (url) => {
    const page = await get(url);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(page.headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(page.body).toMatch(/^<!doctype html>/);
    expect(page.body).toMatch(/<h1[^>]*>/);
    expect(page.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    // rendered, not shown as Markdown: no fences, no heading marks at the start of a line
    expect(page.body.replace(/<pre>[\s\S]*?<\/pre>/g, '')).not.toMatch(/^```|^#{1,6} /m);
    // everything the page loads comes from this server (links to other sites are plain anchors)
    expect(attrs(page.body, 'src')).toEqual([]);
    for (const link of page.body.match(/<link [^>]*>/g) ?? []) expect(link).toMatch(/href="(\/docs\/assets\/|data:)/);
  });

  it.each(PAGES)('every link of %s resolves, headings included', async (url) => {
    const page = await get(url);
    const broken: string[] = [];
    for (const href of attrs(page.body, 'href')) {
      if (/^(https?:|mailto:|data:)/.test(href)) continue;
      const target = new URL(href, `http://docs.test${url}`);
      const answer = target.pathname === url ? page : await get(target.pathname + target.search);
      if (answer.statusCode !== 200) {
        broken.push(`${href}: ${answer.statusCode}`);
        continue;
      }
      if (target.hash && !answer.body.includes(`id="${decodeURIComponent(target.hash.slice(1))}"`)) broken.push(`${href}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it('the stylesheet is served; an unknown page is 404; raw HTML in the Markdown is not passed through', async () => {
    const css = await get('/docs/assets/guides.css', 'text/css');
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    expect((await get('/docs/no-such-guide')).statusCode).toBe(404);
    expect((await get('/docs/design/no-such-note')).statusCode).toBe(404);
    expect((await get('/docs/..%2fREADME')).statusCode).toBe(404);
    // docs/permissions.md marks its generated part with HTML comments: they do not reach the page
    expect((await get('/docs/permissions')).body).not.toContain('<!--');
  });

  it('/readme is the README as a page in a browser and as Markdown otherwise', async () => {
    const html = await get('/readme');
    expect(html.body).toMatch(/<h1 id="booking-platform-api">Booking platform API<\/h1>/);
    const md = await get('/readme', 'text/markdown');
    expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    expect(md.body).toMatch(/^# Booking platform API/);
  });
});
