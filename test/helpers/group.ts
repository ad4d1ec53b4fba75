import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the same CommonJS file jest.config.js reads
const groups = require('../groups.js') as { filesOf(name: string): string[]; groupOf(path: string): string | null };

/** The integration test files of a group (test/groups.js), from the root. */
export const groupFiles = groups.filesOf;
/** The group a jest file runs (`test/groups/<name>.int.ts`), or null for any other file. */
export const groupOf = groups.groupOf;

/**
 * Runs the integration test files of one group of context directories (test/groups.js) in this
 * one jest file, each under a `describe` named by its path, so that its hooks stay its own. Jest
 * gives every test file a fresh module registry, and loading the application's modules and
 * building its first server is most of what a small integration file costs; a group pays it once
 * (bench/README.md, "Test suite"). `npm test` runs the groups (`test/groups/`); a file still runs
 * alone by its path in the project `integration-files` (`npx jest test/booking/bookings-admin.int.test.ts`).
 * Files are found by name, so a new file in a context runs in its group without being listed.
 */
export function runGroup(name: string): void {
  const files = groupFiles(name);
  if (files.length === 0) throw new Error(`group ${name} holds no integration test file`);
  for (const path of files) {
    describe(path, () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- a test file, loaded inside its describe
      require(join(ROOT, path));
    });
  }
}
