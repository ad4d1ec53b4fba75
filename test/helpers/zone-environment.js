/**
 * The test environment of the unit projects: it sets the worker process's time zone
 * (`testEnvironmentOptions.timeZone`, or the zone the run started with) before each test file,
 * so one jest run covers the pure code under several process time zones. A worker runs one file
 * at a time and Node applies a change of `process.env.TZ` at once, so files of different zones
 * can share a worker; the sandbox of a test cannot switch the zone of its own process.
 */
const { TestEnvironment } = require('jest-environment-node');

const ORIGINAL = process.env.TZ;

class ZoneEnvironment extends TestEnvironment {
  constructor(config, context) {
    const zone = config.projectConfig.testEnvironmentOptions?.timeZone ?? ORIGINAL;
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
    super(config, context);
  }
}

module.exports = ZoneEnvironment;
