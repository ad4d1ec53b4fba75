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
 * share a group. Every directory of integration tests belongs to exactly one group or to
 * `processes`; jest.config.js refuses to start otherwise.
 */
module.exports = {
  processes: [
    'test/faults/',
    'test/http/cli.int.test.ts',
    'test/http/demo-seed.int.test.ts',
    'test/http/build-output.int.test.ts',
    'test/http/browser.int.test.ts',
  ],
  groups: {
    audit: ['audit'],
    availability: ['availability'],
    booking: ['booking'],
    catalog: ['catalog'],
    commerce: ['commerce', 'giftcard', 'promocode', 'pricing'],
    company: ['company', 'client', 'calendar', 'scheduling', 'document'],
    docs: ['docs'],
    graphql: ['graphql'],
    http: ['http'],
    notification: ['notification'],
    payment: ['payment'],
    subscription: ['subscription'],
    webhook: ['webhook'],
  },
};
