// The static checks of `npm test`: ESLint, Prettier and the type check (`npm run lint` and
// `npm run typecheck`), run side by side, each a process of its own, so together they take about
// as long as the slowest of them. Each one's output is printed whole once it is done; the exit
// code is 1 when any of them failed.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const CHECKS = [
  { name: 'eslint', command: bin('eslint'), args: ['.'] },
  { name: 'prettier', command: bin('prettier'), args: ['--check', '.'] },
  { name: 'typecheck', command: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'] },
];

function run({ name, command, args }) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('error', (err) => resolve({ name, code: 1, output: `${output}${err.message}\n`, ms: performance.now() - started }));
    child.once('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), output, ms: performance.now() - started }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const r of results) {
  const verdict = r.code === 0 ? 'passed' : `failed (exit ${r.code})`;
  process.stdout.write(`> ${r.name}: ${verdict} in ${(r.ms / 1000).toFixed(1)} s\n`);
  if (r.code !== 0 || r.output.trim()) process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
}
process.exitCode = results.every((r) => r.code === 0) ? 0 : 1;
