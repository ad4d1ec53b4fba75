import 'reflect-metadata';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded';
import { createOrm } from '../../src/db/orm';
import { allEntities } from '../../src/app/registry';
import { probeRedis } from './redis';

/**
 * One PostgreSQL per test run: TEST_DATABASE_URL when given, else an embedded server in a
 * temporary directory. A template database is migrated once; every test file clones it.
 * Redis (for the shared rate limit) is looked for once too.
 */
export default async function globalSetup(): Promise<void> {
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const parent = mkdtempSync(join(tmpdir(), 'booking-test-'));
    // When run as root the server runs as the `postgres` user, which must reach the directory.
    chmodSync(parent, 0o755);
    const dir = join(parent, 'pg');
    const db = await startEmbeddedPostgres({ dir, database: 'postgres', persistent: false });
    (globalThis as { __embeddedPg?: unknown }).__embeddedPg = db;
    adminUrl = db.url;
  }
  const template = `booking_tmpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${template}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  const orm = await createOrm(url.toString(), { entities: allEntities(), migrate: true, poolMax: 2 });
  await orm.close(true);
  // Test files run in their own module registry; the entity metadata registered here must not leak into them.
  for (const key of Object.keys(globalThis)) if (key.startsWith('mikro-orm-')) delete (globalThis as Record<string, unknown>)[key];
  process.env.BOOKING_TEST_ADMIN_URL = adminUrl;
  process.env.BOOKING_TEST_TEMPLATE = template;
  const redis = await probeRedis();
  if (redis) process.env.BOOKING_TEST_REDIS_URL = redis;
  else delete process.env.BOOKING_TEST_REDIS_URL;
}
