import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.BOOKING_TEST_ADMIN_URL;
  const template = process.env.BOOKING_TEST_TEMPLATE;
  if (adminUrl && template) {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    // Databases cloned by test files that crashed before cleaning up go too.
    const left = await admin.query(`select datname from pg_database where datname like $1 or datname = $2`, [`${template}_%`, template]);
    for (const row of left.rows) await admin.query(`drop database if exists "${row.datname}" with (force)`);
    await admin.end();
  }
  const db = (globalThis as { __embeddedPg?: { stop(): Promise<void> } }).__embeddedPg;
  await db?.stop();
}
