/**
 * How the integration test files run (jest.config.js, test/helpers/group.ts).
 *
 * `processes`: the tests of whole programs, apart from `npm test` (`npm run test:processes`):
 * servers killed, restarted and signalled, several processes on one database (test/faults/), and
 * the programs a user starts: the CLI (each command a process), `demo:seed` beside a server on a
 * fresh embedded PostgreSQL, the build before a start, the pages in a browser. They spend their
 * time starting programs (bench/README.md, "Test suite"). The guides' examples, which also run
 * against a server process, stay in `npm test`: that the README and the guides run as written is
 * part of it.
 *
 * `groups`: the rest, by context directory, each group run by `npm test` as one jest file
 * (`test/groups/<name>.int.ts`) so that it loads the application's modules once. Small contexts
 * share a group; a file that takes minutes by itself (the HTTP fuzzing) is a group of its own,
 * named by its path, and its directory's group runs the others. Listed the slowest first (as
 * measured by `npm test` on a fresh clone): without earlier timings, jest starts them in this
 * order (test/helpers/sequencer.js). Every directory of integration tests belongs to exactly one
 * group or to `processes`; jest.config.js refuses to start otherwise.
 */
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const processes = [
  'test/faults/',
  'test/http/cli.int.test.ts',
  'test/http/demo-seed.int.test.ts',
  'test/http/build-output.int.test.ts',
  'test/http/browser.int.test.ts',
];
const groups = {
  http: ['http'],
  docs: ['docs'],
  graphql: ['graphql'],
  company: ['company', 'client', 'calendar', 'scheduling', 'document'],
  payment: ['payment'],
  fuzz: ['test/http/fuzz.int.test.ts'],
  booking: ['booking'],
  subscription: ['subscription'],
  notification: ['notification'],
  commerce: ['commerce', 'giftcard', 'promocode', 'pricing'],
  availability: ['availability'],
  catalog: ['catalog'],
  audit: ['audit'],
  webhook: ['webhook'],
};

const TEST = __dirname;
const isFile = (entry) => entry.endsWith('.int.test.ts');

/** The integration test files of a context directory that are not tests of whole programs, from the root. */
function filesIn(dir) {
  return readdirSync(join(TEST, dir))
    .filter(isFile)
    .map((f) => `test/${dir}/${f}`)
    .filter((path) => !processes.some((p) => path.startsWith(p)));
}

/** The integration test files a group runs, from the root (`test/<context>/<name>.int.test.ts`). */
function filesOf(name) {
  const entries = groups[name];
  if (!entries) throw new Error(`test/groups.js has no group ${name}`);
  // files that a group names by path belong to it, not to their directory's group
  const named = Object.values(groups).flat().filter(isFile);
  return entries.flatMap((entry) => (isFile(entry) ? [entry] : filesIn(entry).filter((path) => !named.includes(path)))).sort();
}

/** The group a jest file runs (`test/groups/<name>.int.ts`), or null for any other file. */
function groupOf(path) {
  return /[\\/]test[\\/]groups[\\/]([a-z-]+)\.int\.ts$/.exec(path)?.[1] ?? null;
}

/** What is wrong with the groups: a directory of integration tests in no group or in two, a group without its file. */
function problems() {
  const owners = new Map();
  for (const [name, entries] of Object.entries(groups))
    for (const c of entries.filter((e) => !isFile(e))) owners.set(c, [...(owners.get(c) ?? []), name]);
  const found = [];
  for (const dir of readdirSync(TEST, { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name === 'groups') continue;
    const n = (owners.get(dir.name) ?? []).length;
    if (filesIn(dir.name).length > 0 && n !== 1) found.push(`test/${dir.name} is in ${n} groups of test/groups.js, not 1`);
  }
  for (const file of Object.values(groups).flat().filter(isFile))
    if (!existsSync(join(TEST, '..', file))) found.push(`${file}, named by a group, does not exist`);
  for (const name of Object.keys(groups))
    if (!existsSync(join(TEST, 'groups', `${name}.int.ts`))) found.push(`group ${name} has no test/groups/${name}.int.ts`);
  return found;
}

module.exports = { processes, groups, filesOf, groupOf, problems };
