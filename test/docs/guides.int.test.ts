import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/db/embedded';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { cloneTestDatabase } from '../helpers/test-database';
import {
  codeBlocks,
  DOCS_ADMIN_KEY,
  explain,
  readText,
  RECEIVER_ORIGIN,
  RUN,
  runDocument,
  SERVER_ORIGIN,
  SHOW,
  graphqlCommand,
} from './doc-blocks';

/**
 * The README and every guide run as written: their ```sh and ```graphql blocks, in order, in one
 * bash session per document, against a real server process (src/main.ts, on a database of the
 * tests' PostgreSQL) started with the key and settings docs/getting-started.md starts it with. The
 * documents address it as http://localhost:4000 and a webhook receiver they start as
 * http://localhost:4001; the session gets the ports of this test's own instead.
 */

const ROOT = join(__dirname, '..', '..');
const markdown = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.md'))
    .map((f) => (dir === '.' ? f : `${dir}/${f}`));
const DOCUMENTS = [...markdown('.'), ...markdown('docs'), ...markdown('docs/design')].sort();
const runnable = DOCUMENTS.filter((f) => codeBlocks(readText(join(ROOT, f))).some((b) => RUN.has(b.lang)));

describe('code blocks', () => {
  it('the README and the guides have examples to run', () => {
    expect(runnable).toEqual(expect.arrayContaining(['README.md', 'docs/getting-started.md', 'docs/concepts.md']));
  });

  it.each(DOCUMENTS)('%s: each block is run (sh, graphql) or shown (console, json, ...), and a run one holds no fixed date', (file) => {
    const wrong: string[] = [];
    for (const b of codeBlocks(readText(join(ROOT, file)))) {
      if (!RUN.has(b.lang) && !SHOW.has(b.lang)) wrong.push(`line ${b.line}: language "${b.lang}" is neither run nor shown`);
      // dates are computed in the shell (date -u -d ...), so the examples never go stale
      if (RUN.has(b.lang) && /\b\d{4}-\d{2}-\d{2}\b/.test(b.code)) wrong.push(`line ${b.line}: a fixed date in a block that runs`);
      if (b.lang === 'graphql') {
        try {
          graphqlCommand(b.code);
        } catch (e) {
          wrong.push(`line ${b.line}: ${(e as Error).message}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

// the examples use curl and jq, as a reader's shell would; .ci/run installs them
const TOOLS = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const describeIfTools = TOOLS.length ? describe.skip : describe;
if (TOOLS.length) console.warn(`the guides' examples are skipped: ${TOOLS.join(', ')} not installed`);

describeIfTools('the examples run as written', () => {
  let server: ServerProcess;
  let origin: string;
  const work = mkdtempSync(join(tmpdir(), 'booking-docs-'));

  let db: Awaited<ReturnType<typeof cloneTestDatabase>>;

  beforeAll(async () => {
    // the tests' PostgreSQL, on a database of its own (the server's embedded one is tried by test/faults/embedded)
    db = await cloneTestDatabase();
    server = await startServerProcess({
      ADMIN_API_KEY: DOCS_ADMIN_KEY,
      WEBHOOK_ALLOW_INSECURE: 'true',
      WEBHOOK_POLL_MS: '200',
      DATABASE_URL: db.url,
    });
    origin = server.base.replace('127.0.0.1', 'localhost');
  }, 180_000);
  afterAll(async () => {
    if (server) {
      server.cleanup();
      await server.exited;
    }
    await db?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(runnable)(
    '%s',
    async (file) => {
      const receiver = `http://localhost:${await freePort()}`;
      const run = await runDocument(file, readText(join(ROOT, file)), {
        workDir: join(work, file.replace(/\W+/g, '_')),
        rewrite: [
          [SERVER_ORIGIN, origin],
          [RECEIVER_ORIGIN, receiver],
        ],
        timeoutMs: 240_000,
      });
      if (run.code !== 0) throw new Error(explain(file, run));
      expect(run.output).toContain('@@@ done');
    },
    300_000,
  );
});
