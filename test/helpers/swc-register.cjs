// Lets a plain `node` child process load TypeScript sources, compiled like jest compiles them
// (.swcrc). Tests use it for code that must run outside jest's module sandbox, such as the
// embedded PostgreSQL, whose package is ES modules only.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const options = JSON.parse(readFileSync(join(__dirname, '..', '..', '.swcrc'), 'utf8'));
delete options.$schema;
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...options, filename, swcrc: false, sourceMaps: 'inline' });
  module._compile(code, filename);
};
