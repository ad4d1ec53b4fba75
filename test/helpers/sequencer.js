const TestSequencer = require('@jest/test-sequencer').default;
const { groups, groupOf } = require('../groups.js');

/**
 * Jest's order (failed first, then files without timings, then the slowest first), except that
 * files without timings start with the groups (test/groups/), in the order test/groups.js lists
 * them (the slowest first, as measured), and then the others by size as jest does. On a fresh
 * clone (no timings yet) the longest groups thus start first instead of being weighed by the few
 * bytes of their own files, where the longest of them would run alone at the end.
 */
class Sequencer extends TestSequencer {
  sort(tests) {
    const names = Object.keys(groups);
    const rank = (test) => {
      const group = groupOf(test.path);
      return group ? names.indexOf(group) : names.length;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    for (const test of tests) test.duration = this.time(test);
    return tests.sort((a, b) => {
      const failedA = this.hasFailed(a);
      if (failedA !== this.hasFailed(b)) return failedA ? -1 : 1;
      const timedA = a.duration != null;
      if (timedA !== (b.duration != null)) return timedA ? 1 : -1;
      if (timedA) return a.duration < b.duration ? 1 : -1;
      if (rank(a) !== rank(b)) return rank(a) - rank(b);
      if (size(a) !== size(b)) return size(a) < size(b) ? 1 : -1;
      return a.path < b.path ? -1 : 1;
    });
  }
}

module.exports = Sequencer;
