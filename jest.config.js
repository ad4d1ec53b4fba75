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
// How integration files run: apart (whole programs) or in groups by context (test/groups.js).
const groups = require('./test/groups.js');
const PROCESSES = groups.processes.map((p) => `<rootDir>/${p}`);
const problems = groups.problems();
if (problems.length) throw new Error(`test/groups.js: ${problems.join('; ')}`);
module.exports = {
  // Integration hooks create databases and servers; a loaded machine can take more than the 5 s default.
  testTimeout: 60000,
  // Integration files spend most of their time waiting on PostgreSQL and on timers, so more
  // workers than cores pay off (bench/README.md, "Test suite"); JEST_WORKERS overrides.
  maxWorkers: process.env.JEST_WORKERS ?? 3,
  // the largest groups first, also on a fresh clone (test/helpers/sequencer.js)
  testSequencer: '<rootDir>/test/helpers/sequencer.js',
  projects: [
    { ...unit, displayName: 'unit' },
    zoned('unit-new-york', 'America/New_York'),
    zoned('unit-kolkata', 'Asia/Kolkata'),
    // `npm test`: the integration files in groups, one jest file a group (test/groups.js).
    { ...integration, displayName: 'integration', testMatch: ['<rootDir>/test/groups/*.int.ts'] },
    // Each integration file alone, to run one by its path: `npx jest test/booking/bookings-admin.int.test.ts`.
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
