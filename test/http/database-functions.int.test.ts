import { MikroORM } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import { allEntities } from '../../src/app/registry';
import { ormConfig } from '../../src/config/mikro-orm.config';
import { applyFunctionFiles, functionFiles } from '../../src/db/function-files';
import { migrationsList } from '../../src/migrations';
import { databaseObjects, type Query } from '../helpers/db-functions';
import { cloneTestDatabase } from '../helpers/test-database';

/**
 * The database's functions, trigger functions with their triggers, and views are the files of
 * src/db/functions, applied after the migrations (src/db/function-files.ts): the migrations
 * create none, a migrated database holds exactly what the files define and nothing else of
 * the kind, and a file is run again only when its text changed.
 */

const files = functionFiles();
const known = migrationsList.map((m) => m.name);
let db: Awaited<ReturnType<typeof cloneTestDatabase>>;
const q: Query = async (text, params) => (await db.query(text, params as unknown[])).rows;

beforeAll(async () => {
  db = await cloneTestDatabase();
});
afterAll(async () => db?.drop());

/** An ORM on the test's database, counting the statements it sends. */
async function orm(url = db.directUrl): Promise<{ orm: MikroORM; statements: () => number }> {
  let n = 0;
  const o = await MikroORM.init(ormConfig(url, { entities: allEntities(), poolMax: 1, onQuery: () => void n++, migrations: true }));
  return { orm: o, statements: () => n };
}

/** What the files declare: `function <name>`, `trigger <table>.<name>`, `view <name>`. */
function declared(): string[] {
  const names = files.flatMap((f) => [
    ...[...f.text.matchAll(/^create or replace function (\w+)\(/gm)].map((m) => `function ${m[1]}`),
    ...[...f.text.matchAll(/^create (?:or replace )?(?:constraint )?trigger (\w+)[\s\S]*? on (\w+)/gm)].map(
      (m) => `trigger ${m[2]}.${m[1]}`,
    ),
    ...[...f.text.matchAll(/^create or replace (?:materialized )?view (\w+)/gm)].map((m) => `view ${m[1]}`),
  ]);
  return [...new Set(names)].sort();
}

describe('database function files', () => {
  it('each file defines the function or view it is named after', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files)
      expect({ file: f.name, defines: declared().some((d) => d === `function ${f.name}` || d === `view ${f.name}`) }).toEqual({
        file: f.name,
        defines: true,
      });
  });

  it('a migrated database holds what the files define, exactly and nothing else of the kind', async () => {
    const now = await databaseObjects(q);
    expect(Object.keys(now).sort()).toEqual(declared());
    // the files run again on it change nothing
    await q('begin');
    try {
      for (const f of files) await q(f.text);
      expect(await databaseObjects(q)).toEqual(now);
    } finally {
      await q('rollback');
    }
  });

  it('the migrations alone create no function, trigger or view', async () => {
    const admin = new Client({ connectionString: process.env.BOOKING_TEST_ADMIN_URL });
    await admin.connect();
    const name = `${process.env.BOOKING_TEST_TEMPLATE}_m${process.pid}`;
    await admin.query(`create database "${name}"`);
    try {
      const url = new URL(process.env.BOOKING_TEST_ADMIN_URL!);
      url.pathname = `/${name}`;
      const { orm: o } = await orm(url.toString());
      try {
        await o.getMigrator().up();
        const objects = Object.keys(await databaseObjects((text, params) => o.em.fork().execute(text, params ?? []) as Promise<any[]>));
        expect(objects).toEqual([]);
      } finally {
        await o.close(true);
      }
    } finally {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });

  it('runs only the files that changed, once, when several processes start together', async () => {
    const before = await databaseObjects(q);
    const first = await orm();
    try {
      // unchanged: one statement, nothing run
      const sent = first.statements();
      expect(await applyFunctionFiles(first.orm.em.fork(), known)).toEqual({ applied: [] });
      expect(first.statements() - sent).toBe(1);
    } finally {
      await first.orm.close(true);
    }

    // two files whose recorded text is not theirs (edited since), one of them drifted in the database
    await q(`update db_function_checksum set checksum = 'edited' where name in ('availability_snapshot', 'catalog_touch_all')`);
    await q(
      'alter function availability_snapshot(uuid, uuid, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[]) reset plan_cache_mode',
    );
    await q('drop trigger catalog_touch_all on slot');
    expect(await databaseObjects(q)).not.toEqual(before);

    const starting = await Promise.all([orm(), orm(), orm()]);
    try {
      const results = await Promise.all(starting.map((s) => applyFunctionFiles(s.orm.em.fork(), known)));
      const applied = results.map((r) => r.applied).filter((a) => a.length > 0);
      expect(applied).toEqual([['availability_snapshot', 'catalog_touch_all']]);
    } finally {
      await Promise.all(starting.map((s) => s.orm.close(true)));
    }
    expect(await databaseObjects(q)).toEqual(before);
  });

  it('leaves the functions of a database migrated by a newer version as they are', async () => {
    await q(`insert into mikro_orm_migrations (name, executed_at) values ('Migration29990101000000Later', now())`);
    await q(`update db_function_checksum set checksum = 'newer' where name = 'booking_documents'`);
    const o = await orm();
    try {
      const res = await applyFunctionFiles(o.orm.em.fork(), known);
      expect(res.applied).toEqual([]);
      expect(res.skipped).toContain('Migration29990101000000Later');
      expect(await q(`select checksum from db_function_checksum where name = 'booking_documents'`)).toEqual([{ checksum: 'newer' }]);
    } finally {
      await o.orm.close(true);
      await q(`delete from mikro_orm_migrations where name = 'Migration29990101000000Later'`);
    }
  });
});
