const { statSync } = require('node:fs');
const { join } = require('node:path');
const TestSequencer = require('@jest/test-sequencer').default;
const { filesOf } = require('../groups.js');

const ROOT = join(__dirname, '..', '..');

/**
 * Jest's order (failed first, then files without timings, then the slowest first), except that
 * a file without timings is weighed by what it runs: a group (test/groups/) by the size of its
 * files, not by the few bytes of its own. On a fresh clone (no timings yet) the largest groups
 * thus start first instead of last, where the longest of them would run alone at the end.
 */
class Sequencer extends TestSequencer {
  sort(tests) {
    const sizes = new Map();
    const size = (test) => {
      if (!sizes.has(test.path)) {
        const group = /[\\/]test[\\/]groups[\\/]([a-z-]+)\.int\.ts$/.exec(test.path);
        const files = group ? filesOf(group[1]).map((f) => join(ROOT, f)) : [test.path];
        sizes.set(
          test.path,
          files.reduce((n, f) => n + statSync(f).size, 0),
        );
      }
      return sizes.get(test.path);
    };
    for (const test of tests) test.duration = this.time(test);
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return a.duration < b.duration ? 1 : -1;
      if (size(a) !== size(b)) return size(a) < size(b) ? 1 : -1;
      return a.path < b.path ? -1 : 1;
    });
  }
}

module.exports = Sequencer;
