/** Unit tests sit next to pure code; integration tests under test/ run against a real PostgreSQL. */
const swc = ['@swc/jest', { swcrc: true }];
const zoneEnvironment = '<rootDir>/test/helpers/zone-environment.js';
const unit = {
  testMatch: ['<rootDir>/src/**/*.test.ts'],
  transform: { '^.+\\.ts$': swc },
  testEnvironment: zoneEnvironment,
};
/** The pure code whose answers must not depend on the process time zone, run again under two more zones. */
const zoneSensitive = ['availability', 'scheduling', 'pricing'].map((m) => `<rootDir>/src/modules/${m}/**/*.test.ts`);
const zoned = (displayName, timeZone) => ({
  ...unit,
  displayName,
  testMatch: [...zoneSensitive, '<rootDir>/src/shared/**/*.test.ts'],
  testEnvironmentOptions: { timeZone },
});
const integration = {
  transform: { '^.+\\.[tj]s$': swc },
  // ES-module-only packages: `auto-bind` (graphql-codegen) and `marked` (the guides at /docs).
  transformIgnorePatterns: ['/node_modules/(?!(auto-bind|marked)/)'],
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/helpers/global-setup.ts',
  globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
  setupFiles: ['reflect-metadata'],
  testTimeout: 60000,
};
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
// How integration files run: apart (whole programs) or in groups by context (test/groups.js).
const { processes, groups } = require('./test/groups.js');
const PROCESSES = processes.map((p) => `<rootDir>/${p}`);
/** Every directory of integration tests belongs to one group or to the processes, and every group has its file. */
function checkGroups() {
  const owners = new Map();
  for (const [name, contexts] of Object.entries(groups)) for (const c of contexts) owners.set(c, [...(owners.get(c) ?? []), name]);
  const problems = [];
  for (const dir of readdirSync(join(__dirname, 'test'), { withFileTypes: true })) {
    if (!dir.isDirectory() || dir.name === 'groups') continue;
    const files = readdirSync(join(__dirname, 'test', dir.name)).filter((f) => f.endsWith('.int.test.ts'));
    const grouped = files.filter((f) => !processes.some((p) => `test/${dir.name}/${f}`.startsWith(p)));
    const n = (owners.get(dir.name) ?? []).length;
    if (grouped.length > 0 && n !== 1) problems.push(`test/${dir.name} is in ${n} groups of test/groups.js, not 1`);
  }
  for (const name of Object.keys(groups)) {
    if (!readdirSync(join(__dirname, 'test', 'groups')).includes(`${name}.int.ts`))
      problems.push(`group ${name} has no test/groups/${name}.int.ts`);
  }
  if (problems.length) throw new Error(`test/groups.js: ${problems.join('; ')}`);
}
checkGroups();
module.exports = {
  // Integration hooks create databases and servers; a loaded machine can take more than the 5 s default.
  testTimeout: 60000,
  // Integration files spend most of their time waiting on PostgreSQL and on timers, so more
  // workers than cores pay off (bench/README.md, "Test suite"); JEST_WORKERS overrides.
  maxWorkers: process.env.JEST_WORKERS ?? 3,
  projects: [
    { ...unit, displayName: 'unit' },
    zoned('unit-new-york', 'America/New_York'),
    zoned('unit-kolkata', 'Asia/Kolkata'),
    // `npm test`: the integration files in groups, one jest file a group (test/groups.js).
    { ...integration, displayName: 'integration', testMatch: ['<rootDir>/test/groups/*.int.ts'] },
    // Each integration file alone, to run one by its path: `npx jest test/booking/bookings.int.test.ts`.
    {
      ...integration,
      displayName: 'integration-files',
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      testPathIgnorePatterns: PROCESSES,
    },
    // `npm run test:processes` (CI runs it too).
    { ...integration, displayName: 'processes', testMatch: PROCESSES.map((p) => (p.endsWith('/') ? `${p}**/*.int.test.ts` : p)) },
  ],
};
