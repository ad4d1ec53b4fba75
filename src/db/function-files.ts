import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The database's functions, trigger functions (with their triggers) and views live whole in
 * `src/db/functions/<name>.sql`, one object per file, and are applied after the migrations on
 * every start that migrates (repeatable, like Flyway's `R__` scripts): each file is run when
 * its SHA-256 differs from the one recorded in `db_function_checksum`, so unchanged files cost
 * one statement. Every file must be safe to run again (`create or replace`; a constraint
 * trigger, which has no `or replace`, is dropped and created again in the file).
 *
 * The files are read from the package's `src/db/functions` both by the sources (tests) and by
 * the compiled server in `dist/`, so a build never ships stale copies.
 */
export interface FunctionFile {
  /** the file's name without `.sql`: the object it defines */
  name: string;
  text: string;
  checksum: string;
}

/** The directory of the files: `src/db/functions` under the package root, from `src/db` or `dist/src/db`. */
export function functionsDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const candidate = join(dir, 'src', 'db', 'functions');
    if (existsSync(join(dir, 'package.json')) && existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`the database functions (src/db/functions/*.sql) were not found above ${__dirname}`);
  }
}

/** Every file, in name order (the order they are applied in). */
export function functionFiles(dir = functionsDir()): FunctionFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      return { name: f.slice(0, -'.sql'.length), text, checksum: createHash('sha256').update(text).digest('hex') };
    });
}

/** Any fixed key, taken for the transaction that applies the files: processes starting together take turns. */
const LOCK_KEY = 7_406_215_839_112_001n;

export interface ApplyResult {
  /** the files run (their text changed, or the database had never seen them) */
  applied: string[];
  /** set when nothing was applied because the database was migrated by a newer version */
  skipped?: string;
}

/**
 * Applies every file whose checksum differs from the recorded one, in one transaction under an
 * advisory lock; a file that fails rolls them all back (the start fails). When every checksum
 * matches (the usual start) this is one statement and takes no lock. A database on which
 * migrations ran that `knownMigrations` does not list belongs to a newer version of the
 * product: its files are left as they are.
 */
export async function applyFunctionFiles(
  em: EntityManager,
  knownMigrations: readonly string[],
  files: FunctionFile[] = functionFiles(),
): Promise<ApplyResult> {
  const stale = (rows: { name: string; checksum: string }[]) => {
    const recorded = new Map(rows.map((r) => [r.name, r.checksum]));
    return files.filter((f) => recorded.get(f.name) !== f.checksum);
  };
  const read = (tx: EntityManager) => tx.execute<{ name: string; checksum: string }[]>('select name, checksum from db_function_checksum');
  if (stale(await read(em)).length === 0) return { applied: [] };
  return em.transactional(async (tx) => {
    await tx.execute(`select pg_advisory_xact_lock(${LOCK_KEY})`);
    const todo = stale(await read(tx)); // another process may have applied them meanwhile
    if (todo.length === 0) return { applied: [] };
    const known = new Set(knownMigrations);
    const executed = await tx.execute<{ name: string }[]>('select name from mikro_orm_migrations');
    const newer = executed.map((r) => r.name).filter((n) => !known.has(n));
    if (newer.length > 0) return { applied: [], skipped: `the database was migrated by a newer version (${newer.join(', ')})` };
    for (const f of todo) {
      try {
        await tx.execute(f.text);
      } catch (err) {
        throw new Error(`src/db/functions/${f.name}.sql: ${(err as Error).message}`, { cause: err });
      }
      await tx.execute(
        `insert into db_function_checksum (name, checksum, applied_at) values (?, ?, now())
         on conflict (name) do update set checksum = excluded.checksum, applied_at = excluded.applied_at`,
        [f.name, f.checksum],
      );
    }
    return { applied: todo.map((f) => f.name) };
  });
}
