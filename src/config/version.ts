import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The product's version: `version` of the package.json of this repository, read once. The
 * CLI (`--version`), the index at `/`, `/health` and the OpenAPI document's `info.version`
 * all report this one number; CHANGELOG.md starts at it.
 */
function readVersion(): string {
  // src/config when run from sources, dist/src/config when built: the first package.json above
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'booking-platform-api' && pkg.version) return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error('package.json of booking-platform-api not found');
  }
}

export const VERSION = readVersion();
