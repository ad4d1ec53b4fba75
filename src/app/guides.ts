import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The guides (`docs/*.md`), the design notes (`docs/design/*.md`) and the README, rendered as
 * HTML pages at `/docs/<name>`, `/docs/design/<name>` and `/readme`, with `/docs` linking them
 * all beside the API reference (`/docs/api`) and the GraphQL explorer. The pages carry no
 * script and one stylesheet of this server's, under a Content-Security-Policy that allows
 * nothing else, so they work offline. Links between the Markdown files become links between
 * the pages; raw HTML in the Markdown is shown as text.
 */

// from src/app when run from sources, from dist/src/app when built
const ROOT = [join(__dirname, '..', '..'), join(__dirname, '..', '..', '..')].find((d) => existsSync(join(d, 'docs'))) ?? process.cwd();

/** Guides in reading order; a guide not named here follows them, by name. */
export const GUIDE_ORDER = [
  'getting-started',
  'concepts',
  'permissions',
  'payments',
  'promo-codes',
  'gift-cards',
  'subscriptions',
  'pdf-templates',
  'calendar-feeds',
  'webhooks',
  'notifications',
  'audit-log',
  'operations',
];

export const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface Page {
  /** repository path of the Markdown file */
  file: string;
  url: string;
  title: string;
  summary: string;
}

function markdownFiles(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));
}

function ordered(names: string[], order: string[]): string[] {
  const rank = (n: string) => (order.includes(n) ? order.indexOf(n) : order.length);
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The page a repository path is served as, if any: `docs/<name>.md` -> `/docs/<name>`, `README.md` -> `/readme`. */
export function pageUrl(file: string): string | undefined {
  if (file === 'README.md') return '/readme';
  const m = /^docs\/((?:design\/)?[a-z0-9-]+)\.md$/.exec(file);
  return m ? `/docs/${m[1]}` : undefined;
}

function describe(file: string): Page {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const title = /^# (.+)$/m.exec(text)?.[1].trim() ?? file;
  // the first paragraph after the title, up to its first full stop
  const para = text.split(/\n\s*\n/).find((p) => p.trim() && !p.startsWith('#') && !p.startsWith('```') && !p.startsWith('<!--')) ?? '';
  const summary = para
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=\.)\s/)[0];
  return { file, url: pageUrl(file)!, title, summary };
}

/** Every page /docs links: the guides in reading order, then the design notes. */
export function docPages(): { guides: Page[]; design: Page[] } {
  return {
    guides: ordered(markdownFiles('docs'), GUIDE_ORDER).map((n) => describe(`docs/${n}.md`)),
    design: ordered(markdownFiles('docs/design'), []).map((n) => describe(`docs/design/${n}.md`)),
  };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

// marked is published as an ES module only: loaded with import(), once
let markedLoad: ReturnType<typeof loadMarkedModule> | null = null;
const loadMarkedModule = () => import('marked');
const loadMarked = () => (markedLoad ??= loadMarkedModule());

/** A Markdown file of the repository as the body of its page. */
export async function renderMarkdown(file: string, text: string): Promise<string> {
  const { Marked } = await loadMarked();
  const seen = new Map<string, number>();
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text: raw }) {
        const base = slug(raw);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n}` : base;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
      html({ text: html }) {
        return /^\s*<!--[\s\S]*-->\s*$/.test(html) ? '' : escapeHtml(html);
      },
      link({ href, title, tokens }) {
        const label = this.parser.parseInline(tokens);
        return `<a href="${escapeHtml(pageHref(file, href))}"${title ? ` title="${escapeHtml(title)}"` : ''}>${label}</a>`;
      },
    },
  });
  return marked.parse(text, { async: false });
}

/** A link of a Markdown file as a link of its page: other Markdown files become their pages. */
export function pageHref(file: string, href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/')) return href;
  const [path, anchor] = href.split('#', 2);
  const target = posix.normalize(posix.join(posix.dirname(file), path));
  const url = pageUrl(target);
  return url ? `${url}${anchor ? `#${anchor}` : ''}` : href;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - Booking platform API</title>
<link rel="stylesheet" href="/docs/assets/guides.css">
<link rel="icon" href="data:,">
</head>
<body>
<nav><a href="/docs">Documentation</a> <a href="/docs/api">REST API reference</a> <a href="/graphql">GraphQL explorer</a></nav>
<main>
${body}
</main>
</body>
</html>
`;
}

const STYLE = `body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d232a;background:#fff}
nav{padding:.6em 1.5em;background:#1f4e79}nav a{color:#fff;margin-right:1.5em;text-decoration:none}nav a:hover{text-decoration:underline}
main{max-width:60em;margin:0 auto;padding:1em 1.5em 4em}
h1,h2,h3{line-height:1.25}h2{margin-top:2em;border-bottom:1px solid #d8dee4;padding-bottom:.2em}
a{color:#0b5cad}code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f5f7;padding:.1em .3em;border-radius:3px}
pre{background:#f3f5f7;padding:.8em 1em;overflow-x:auto;border-radius:4px}pre code{padding:0;background:none}
table{border-collapse:collapse;margin:1em 0;display:block;overflow-x:auto}th,td{border:1px solid #d8dee4;padding:.35em .6em;vertical-align:top;text-align:left}
th{background:#f3f5f7}blockquote{margin:0;padding:0 1em;color:#57606a;border-left:.25em solid #d8dee4}
ul.pages li{margin:.4em 0}
`;

const rendered = new Map<string, Promise<string>>();

/** The HTML page of a repository Markdown file (rendered once per process). */
export function renderPage(file: string): Promise<string> {
  let page = rendered.get(file);
  if (!page) {
    page = (async () => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return layout(describe(file).title, await renderMarkdown(file, text));
    })();
    page.catch(() => rendered.delete(file));
    rendered.set(file, page);
  }
  return page;
}

/** A summary's code spans as code, its links as their text. */
function inline(markdown: string): string {
  return escapeHtml(markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')).replace(/`([^`]+)`/g, '<code>$1</code>');
}

function indexPage(): string {
  const { guides, design } = docPages();
  const list = (pages: Page[]) =>
    `<ul class="pages">${pages.map((p) => `<li><a href="${p.url}">${escapeHtml(p.title)}</a>: ${inline(p.summary)}</li>`).join('')}</ul>`;
  return layout(
    'Documentation',
    `<h1>Booking platform API</h1>
<h2 id="reference">Reference</h2>
<ul class="pages">
<li><a href="/docs/api">REST API reference</a> (OpenAPI, <a href="/v1/openapi.json">JSON</a>)</li>
<li><a href="/graphql">GraphQL explorer</a> (the schema, and a place to run queries with your key)</li>
<li><a href="/readme">README</a>: quick start and configuration</li>
</ul>
<h2 id="guides">Guides</h2>
${list(guides)}
<h2 id="design">Design notes</h2>
${list(design)}`,
  );
}

function sendHtml(reply: FastifyReply, html: string) {
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-cache')
    .send(html);
}

const notFound = (reply: FastifyReply) => reply.code(404).send({ code: 'not_found', message: 'no such page' });

/** `/docs`, the guide and design note pages, their stylesheet and `/readme`. */
export async function guideRoutes(app: FastifyInstance): Promise<void> {
  const hidden = { schema: { hide: true } as object };
  const serve = async (file: string, reply: FastifyReply) => {
    if (!existsSync(join(ROOT, file))) return notFound(reply);
    return sendHtml(reply, await renderPage(file));
  };
  app.get('/docs', hidden, async (_req, reply) => sendHtml(reply, indexPage()));
  app.get('/docs/', hidden, async (_req, reply) => reply.redirect('/docs'));
  app.get('/docs/assets/guides.css', hidden, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLE),
  );
  app.get('/docs/:name', hidden, async (req, reply) => {
    const name = (req.params as { name: string }).name;
    return /^[a-z0-9-]+$/.test(name) ? serve(`docs/${name}.md`, reply) : notFound(reply);
  });
  app.get('/docs/design/:name', hidden, async (req, reply) => {
    const name = (req.params as { name: string }).name;
    return /^[a-z0-9-]+$/.test(name) ? serve(`docs/design/${name}.md`, reply) : notFound(reply);
  });
  // A browser gets the README as a page; anything else gets the Markdown itself.
  app.get('/readme', hidden, async (req, reply) => {
    if (!existsSync(join(ROOT, 'README.md'))) return reply.code(404).send({ code: 'not_found', message: 'README.md is not installed' });
    if ((req.headers.accept ?? '').includes('text/html')) return serve('README.md', reply);
    return reply.type('text/markdown; charset=utf-8').send(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  });
}
