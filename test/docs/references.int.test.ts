import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_TYPES } from '../../src/kernel/events';

/**
 * What the documentation points at exists: every repository path the README, the guides and
 * the design notes name (`src/...`, `test/...`, `docs/...`, ...) is a file or folder of this
 * repository, and every mention of a Markdown file under docs/ in code, tests, benchmarks and
 * configuration names one that exists, so moving a note cannot leave a stale reference behind.
 * The webhooks guide lists exactly the event types the code sends.
 */

const ROOT = join(__dirname, '..', '..');
const walk = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = `${dir}/${d.name}`;
    if (d.isDirectory()) return d.name === 'node_modules' || d.name.startsWith('.') ? [] : walk(rel);
    return [rel];
  });
const markdown = ['README.md', ...walk('docs').filter((f) => f.endsWith('.md'))];
const exists = (path: string) => existsSync(join(ROOT, path.replace(/\/$/, '')));

describe('references', () => {
  it.each(markdown)('%s names only paths of this repository', (file) => {
    // code blocks hold example commands and files of the reader's own project
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/^(\s*)(```|~~~)[\s\S]*?^\1\2\s*$/gm, '');
    const missing: string[] = [];
    // paths in code spans or plain text; placeholders (<context>, *, {x}) are patterns, not paths
    for (const m of text.matchAll(/(?<![\w./-])((?:src|test|bench|scripts|docs|shared|\.ci)\/[\w./*<>{}-]*[\w/])/g)) {
      const path = m[1];
      if (/[*<>{}]/.test(path)) continue;
      if (!exists(path)) missing.push(path);
    }
    expect([...new Set(missing)]).toEqual([]);
  });

  it('every docs/*.md named in code, tests, benchmarks and configuration exists', () => {
    const sources = ['src', 'test', 'bench', 'scripts']
      .flatMap(walk)
      .filter((f) => /\.(ts|mjs|cjs|js|sql|md|sh)$/.test(f) && statSync(join(ROOT, f)).isFile())
      .concat(['eslint.config.mjs', 'jest.config.js', 'package.json', '.ci/run']);
    const missing: string[] = [];
    for (const f of sources) {
      for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(/docs\/[\w/-]+\.md/g)) if (!exists(m[0])) missing.push(`${f}: ${m[0]}`);
    }
    expect(missing).toEqual([]);
  });

  it('the webhooks guide lists exactly the event types the code sends', () => {
    const guide = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');
    const table = guide.slice(guide.indexOf('| type | when |'));
    const listed = [...table.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...EVENT_TYPES]);
  });
});
