// Builds dist/ with tsc only when a source, a tsconfig or the installed dependencies changed
// since the last build, so `npm start` and `npm run cli` start in about a second on an
// unchanged tree. The fingerprint is every input's path, size and modification time. What it
// does goes to stderr (the commands' own output stays on stdout): a build takes about a minute.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-fingerprint');

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

const inputs = [
  ...files(join(root, 'src')),
  ...files(join(root, 'bench')),
  join(root, 'mikro-orm.config.ts'),
  join(root, 'tsconfig.json'),
  join(root, 'tsconfig.build.json'),
  join(root, 'package-lock.json'),
].filter((f) => existsSync(f));
const hash = createHash('sha256');
for (const file of inputs.sort()) {
  const s = statSync(file);
  hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
}
const fingerprint = hash.digest('hex');
const built = existsSync(join(root, 'dist', 'src', 'main.js')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === fingerprint;
if (!built) {
  const first = !existsSync(join(root, 'dist', 'src', 'main.js'));
  process.stderr.write(
    first
      ? 'building the server into dist/ (the first build takes about a minute)...\n'
      : 'building the server into dist/ (sources changed since the last build)...\n',
  );
  const started = Date.now();
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, fingerprint);
  process.stderr.write(`built in ${Math.round((Date.now() - started) / 1000)} s\n`);
}
