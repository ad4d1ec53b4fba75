// Lets a plain `node` child process load TypeScript sources, compiled like jest compiles them
// (.swcrc). Tests use it for code that must run outside jest's module sandbox, such as the
// embedded PostgreSQL, whose package is ES modules only.
//
// What it compiles is kept in node_modules/.cache/swc-register, named by a hash of the source,
// its path and the options: the tests start many such processes and threads (the CLI, servers,
// PDF threads), and each would otherwise compile the same few hundred files again.
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync, version } = require('@swc/core');

const root = join(__dirname, '..', '..');
const swcrc = readFileSync(join(root, '.swcrc'), 'utf8');
const options = JSON.parse(swcrc);
delete options.$schema;
const cacheDir = join(root, 'node_modules', '.cache', 'swc-register');
const salt = `${version}\0${swcrc}\0`;

function compiled(filename) {
  const source = readFileSync(filename, 'utf8');
  const file = join(cacheDir, `${createHash('sha1').update(salt).update(filename).update('\0').update(source).digest('hex')}.js`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // not compiled yet
  }
  const { code } = transformSync(source, { ...options, filename, swcrc: false, sourceMaps: 'inline' });
  try {
    mkdirSync(cacheDir, { recursive: true });
    // written whole under another name first: processes running in parallel read only complete files
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  } catch {
    // a cache that cannot be written only costs the next process a compilation
  }
  return code;
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(compiled(filename), filename);
};
