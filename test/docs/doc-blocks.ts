import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type OperationDefinitionNode, type TypeNode } from 'graphql';

/**
 * The code blocks of the README and the guides, and how the tests run them.
 *
 * Convention (stated in docs/getting-started.md, "How to read the examples"): a ```sh block is
 * a shell script and a ```graphql block a GraphQL operation, both run in document order in one
 * bash session per document, so a variable set by one block (`$KEY`, `$CID`) is there for the
 * next. A GraphQL block is posted to `$B/graphql` with `X-API-Key: $KEY`, or with the headers
 * its leading `# Name: value` comment lines give; each variable it declares takes the value of
 * the shell variable of the same name (`$CID: ID!` is `$CID`). Every other block (```console
 * transcripts, ```json, ```ts, ```text ...) is shown, never run.
 *
 * The session runs under `set -euo pipefail`: an undefined variable or a failing command stops
 * it. `curl` is a function that adds `--fail-with-body`, so any answer of 400 or above fails,
 * and any answer of /graphql that carries `errors` fails too, also inside `$(...)`.
 */

export const RUN = new Set(['sh', 'graphql']);
/** Languages of blocks that are shown only; anything else (a typo of `sh`) fails the tests. */
export const SHOW = new Set(['console', 'text', 'json', 'ts', 'js', 'yaml', 'http', 'sql', 'ini']);

/** The origins the documents use, which the tests point at servers of their own. */
export const SERVER_ORIGIN = 'http://localhost:4000';
export const RECEIVER_ORIGIN = 'http://localhost:4001';
/** The `ADMIN_API_KEY` the documents start the server with. */
export const DOCS_ADMIN_KEY = 'dev-admin-key-0123456789';

export interface Block {
  lang: string;
  code: string;
  /** 1-based line of the opening fence */
  line: number;
}

/** Fenced code blocks of a Markdown text, in order, also inside lists and quotes. */
export function codeBlocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.split('\n');
  let open: { fence: string; lang: string; line: number; indent: number; body: string[] } | null = null;
  lines.forEach((text, i) => {
    if (!open) {
      const m = /^(\s*)(```+|~~~+)\s*([^\s`]*)/.exec(text);
      if (m) open = { fence: m[2], lang: m[3], line: i + 1, indent: m[1].length, body: [] };
      return;
    }
    if (text.trim().startsWith(open.fence) && text.trim().replace(/[`~]/g, '') === '') {
      out.push({ lang: open.lang, code: open.body.join('\n'), line: open.line });
      open = null;
      return;
    }
    const indent = open.indent;
    open.body.push(text.slice(Math.min(indent, text.length - text.trimStart().length)));
  });
  if (open) throw new Error(`a code block opened at line ${(open as { line: number }).line} is never closed`);
  return out;
}

const STRING_TYPES = new Set(['String', 'ID', 'DateTime', 'Duration', 'LocalTime', 'Currency', 'TimeZone', 'HexColorCode', 'UUID']);

function namedType(t: TypeNode): { name: string; list: boolean } {
  if (t.kind === 'NonNullType') return namedType(t.type);
  if (t.kind === 'ListType') return { name: namedType(t.type).name, list: true };
  return { name: t.name.value, list: false };
}

/** The shell command that posts a GraphQL block, its variables taken from the shell. */
export function graphqlCommand(operation: string): string {
  const doc = parse(operation);
  const vars = doc.definitions
    .filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')
    .flatMap((d) => d.variableDefinitions ?? [])
    .map((v) => {
      const t = namedType(v.type);
      return `${v.variable.name.value}:${STRING_TYPES.has(t.name) && !t.list ? 's' : 'j'}`;
    });
  const tag = '__DOCS_GRAPHQL__';
  if (operation.includes(tag)) throw new Error('a GraphQL block holds the heredoc tag');
  return `__docs_graphql "$(cat <<'${tag}'\n${operation}\n${tag}\n)" ${vars.join(' ')}`;
}

const PREAMBLE = `source ${JSON.stringify(join(__dirname, 'doc-session.sh'))}\n`;

export interface DocRun {
  code: number | null;
  output: string;
  /** the block that was running when the session ended (0: none ran) */
  block: number;
  blocks: Block[];
}

/** Runs the runnable blocks of one document in one bash session, in a directory of its own. */
export function runDocument(
  file: string,
  markdown: string,
  opts: { workDir: string; rewrite: [string, string][]; timeoutMs: number },
): Promise<DocRun> {
  const blocks = codeBlocks(markdown).filter((b) => RUN.has(b.lang));
  const parts = [PREAMBLE];
  blocks.forEach((b, i) => {
    let code = b.code;
    for (const [from, to] of opts.rewrite) code = code.split(from).join(to);
    parts.push(`echo '@@@ block ${i + 1} (${file}:${b.line})'`);
    parts.push(b.lang === 'graphql' ? graphqlCommand(code) : code);
    parts.push('__docs_check');
  });
  parts.push(`echo '@@@ done'`);
  mkdirSync(opts.workDir, { recursive: true });
  const script = join(opts.workDir, '.docs-session.sh');
  writeFileSync(script, parts.join('\n') + '\n');
  const failures = join(opts.workDir, '.docs-failures');
  writeFileSync(failures, '');
  return new Promise((resolve) => {
    const child = spawn('bash', [script], {
      cwd: opts.workDir,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: opts.workDir, LANG: 'C.UTF-8', DOCS_FAILURES: failures },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => {
      output += `\n(timed out after ${opts.timeoutMs} ms)`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const started = [...output.matchAll(/^@@@ block (\d+)/gm)].map((m) => Number(m[1]));
      resolve({ code, output, block: started.length ? started[started.length - 1] : 0, blocks });
    });
  });
}

/** What a failed run shows: the block that failed and what the session printed while it ran. */
export function explain(file: string, run: DocRun): string {
  const b = run.blocks[run.block - 1];
  const since = run.output.lastIndexOf(`@@@ block ${run.block} `);
  return [
    `${file}: the session ended with ${run.code} in block ${run.block}${b ? ` (line ${b.line})` : ''}`,
    b ? `--- block\n${b.code}` : '',
    `--- output\n${(since >= 0 ? run.output.slice(since) : run.output).slice(-6000)}`,
  ].join('\n');
}

export const readText = (path: string) => readFileSync(path, 'utf8');
