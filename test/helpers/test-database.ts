import { Client } from 'pg';

/**
 * The address the servers under test use for their pool: TEST_DATABASE_POOLER_URL (a PgBouncer
 * in transaction pooling mode, see scripts/pgbouncer.sh) when set, with the database name of
 * `url`; else `url` itself. Migrations, LISTEN and the tests' own checks stay direct.
 */
export function pooled(url: URL): URL {
  const pooler = process.env.TEST_DATABASE_POOLER_URL;
  if (!pooler) return url;
  const out = new URL(pooler);
  out.pathname = url.pathname;
  return out;
}

/**
 * A new database cloned from the migrated template of the test run, for servers started as
 * real processes; `drop()` removes it (the connections still open are closed).
 */
export async function cloneTestDatabase(): Promise<{
  /** for the servers' pools (through the pooler when there is one) */
  url: string;
  directUrl: string;
  query: Client['query'];
  drop(): Promise<void>;
}> {
  const adminUrl = process.env.BOOKING_TEST_ADMIN_URL;
  const template = process.env.BOOKING_TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('integration tests need the global setup (run them through jest)');
  const name = `${template}_p${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}" template "${template}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  return {
    url: pooled(url).toString(),
    directUrl: url.toString(),
    query: db.query.bind(db) as Client['query'],
    async drop() {
      await db.end();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}
