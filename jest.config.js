/** Unit tests sit next to pure code; integration tests under test/ run against a real PostgreSQL. */
const swc = ['@swc/jest', { swcrc: true }];
module.exports = {
  // Integration hooks create databases and servers; a loaded machine can take more than the 5 s default.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.test.ts'],
      transform: { '^.+\\.ts$': swc },
      testEnvironment: 'node',
    },
    {
      displayName: 'integration',
      testMatch: ['<rootDir>/test/**/*.int.test.ts'],
      transform: { '^.+\\.[tj]s$': swc },
      // ES-module-only packages: `cookie` (light-my-request, behind fastify.inject) and `auto-bind` (graphql-codegen).
      transformIgnorePatterns: ['/node_modules/(?!(cookie|auto-bind)/)'],
      testEnvironment: 'node',
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
      globalTeardown: '<rootDir>/test/helpers/global-teardown.ts',
      setupFiles: ['reflect-metadata'],
      testTimeout: 60000,
    },
  ],
};
