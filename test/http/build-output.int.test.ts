import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The build before `npm start` and `npm run cli` (scripts/build-if-changed.mjs) says what it
 * does on stderr, since the first one takes about a minute: run on a small project of its own
 * (a copy of the script, one source file, the real TypeScript), so that the build is short.
 */
const root = join(__dirname, '..', '..');

describe('the build before a start', () => {
  let project: string;
  const build = () => spawnSync(process.execPath, [join(project, 'scripts', 'build-if-changed.mjs')], { cwd: project, encoding: 'utf8' });

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'booking-build-'));
    mkdirSync(join(project, 'scripts'));
    cpSync(join(root, 'scripts', 'build-if-changed.mjs'), join(project, 'scripts', 'build-if-changed.mjs'));
    mkdirSync(join(project, 'src'));
    mkdirSync(join(project, 'bench'));
    writeFileSync(join(project, 'src', 'main.ts'), 'export const started: number = Date.now();\n');
    writeFileSync(join(project, 'tsconfig.json'), '{}\n');
    writeFileSync(
      join(project, 'tsconfig.build.json'),
      JSON.stringify({ compilerOptions: { outDir: 'dist', rootDir: '.', types: [], skipLibCheck: true }, include: ['src/**/*.ts'] }),
    );
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(join(root, 'node_modules', 'typescript'), join(project, 'node_modules', 'typescript'));
  });
  afterAll(() => rmSync(project, { recursive: true, force: true }));

  it('the first build says so and how long it took, on stderr; an unchanged tree builds nothing and says nothing', () => {
    const first = build();
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/^building the server into dist\/ \(the first build takes about a minute\)\.\.\.\nbuilt in \d+ s\n$/);
    expect(existsSync(join(project, 'dist', 'src', 'main.js'))).toBe(true);

    const again = build();
    expect(again.status).toBe(0);
    expect(again.stdout + again.stderr).toBe('');
  });

  it('a changed source is built again, saying why', () => {
    appendFileSync(join(project, 'src', 'main.ts'), 'export const changed = true;\n');
    const changed = build();
    expect(changed.status).toBe(0);
    expect(changed.stderr).toMatch(/^building the server into dist\/ \(sources changed since the last build\)\.\.\.\nbuilt in \d+ s\n$/);
  });
});
