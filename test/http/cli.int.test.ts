import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The command line: `npm run cli -- --help` lists the commands and exits 0; mistakes exit 2. */
const root = join(__dirname, '..', '..');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, ['-r', join(root, 'test/helpers/swc-register.cjs'), join(root, 'src/cli.ts'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
  });

describe('cli', () => {
  it.each(['--help', '-h', 'help'])('%s lists the commands and exits 0 without touching the database', (flag) => {
    const r = cli(flag);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('merchant:create --name <name>');
  });

  it('an unknown command or a missing name exits 2 with the list', () => {
    const unknown = cli('merchant:delete');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown command merchant:delete');
    expect(unknown.stderr).toContain('merchant:create');
    const nameless = cli('merchant:create');
    expect(nameless.status).toBe(2);
    expect(nameless.stderr).toContain('needs --name');
  });
});
