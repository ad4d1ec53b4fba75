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
/**
 * The tests of whole programs, apart from `npm test`: servers killed, restarted and signalled,
 * several processes on one database (test/faults/), and the programs a user starts: the CLI
 * (each command a process), `demo:seed` beside a server on a fresh embedded PostgreSQL, the
 * build before a start, the pages in a browser. They spend their time starting programs
 * (bench/README.md, "Test suite"). The guides' examples, which also run against a server
 * process, stay in `npm test`: that the README and the guides run as written is part of it.
 */
const PROCESSES = [
  '<rootDir>/test/faults/',
  '<rootDir>/test/http/cli.int.test.ts',
  '<rootDir>/test/http/demo-seed.int.test.ts',
  '<rootDir>/test/http/build-output.int.test.ts',
  '<rootDir>/test/http/browser.int.test.ts',
];
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
    {
      ...integration,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      testPathIgnorePatterns: PROCESSES,
    },
    // `npm run test:processes` (CI runs it too).
    { ...integration, displayName: 'processes', testMatch: PROCESSES.map((p) => (p.endsWith('/') ? `${p}**/*.int.test.ts` : p)) },
  ],
};
