// @ts-check
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import ts from 'typescript';

/**
 * `local/no-cycle`: no file reaches itself through its imports, counting every kind of import:
 * values, `import type`, `export ... from`, `import x = require()`, `import()` and
 * `typeof import()`. eslint-plugin-import-x's `no-cycle` (4.18) drops type-only imports from its
 * graph with no option to keep them, so a cycle of types it cannot see still ties two files
 * (or layers) together; this rule replaces it.
 *
 * The graph is built once per process: each file's imports are read with TypeScript's scanner
 * (`preProcessFile`, no parse) and resolved as TypeScript does for relative paths; packages are
 * not followed. The file being linted always contributes its current text, so an editor sees
 * its own edits at once (other files as they were first read). Cycles are the strongly
 * connected components of the graph (Tarjan), so each import costs a lookup.
 */

const OPTIONS = { moduleResolution: ts.ModuleResolutionKind.Node10, allowJs: false };
const resolutionCache = ts.createModuleResolutionCache(ts.sys.getCurrentDirectory(), (f) => f, OPTIONS);

/** @type {Map<string, string[]>} file -> the files it imports */
const graph = new Map();
/** @type {Map<string, number>} file -> its component, for the files visited so far */
let component = new Map();
let tarjan = newTarjan();

/** @returns {string | null} */
function resolve(specifier, from) {
  if (!specifier.startsWith('.') && !specifier.startsWith('/')) return null;
  const r = ts.resolveModuleName(specifier, from, OPTIONS, ts.sys, resolutionCache).resolvedModule;
  return r && !r.isExternalLibraryImport ? r.resolvedFileName : null;
}

/** @returns {string[]} */
function importsIn(text, file) {
  const found = ts.preProcessFile(text, true, true).importedFiles;
  return [...new Set(found.map((i) => resolve(i.fileName, file)).filter((f) => f !== null))];
}

function importsOf(file) {
  let deps = graph.get(file);
  if (!deps) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      // a file that cannot be read imports nothing
    }
    deps = importsIn(text, file);
    graph.set(file, deps);
  }
  return deps;
}

function newTarjan() {
  return { next: 0, index: new Map(), low: new Map(), stack: /** @type {string[]} */ ([]), on: new Set() };
}

/** Assigns a component to every file reachable from `root` (iterative, so deep graphs are fine). */
function visit(root) {
  const s = tarjan;
  if (s.index.has(root)) return;
  /** @type {{ file: string, deps: string[], i: number }[]} */
  const frames = [];
  const enter = (file) => {
    s.index.set(file, s.next);
    s.low.set(file, s.next++);
    s.stack.push(file);
    s.on.add(file);
    frames.push({ file, deps: importsOf(file), i: 0 });
  };
  enter(root);
  while (frames.length) {
    const f = frames[frames.length - 1];
    if (f.i < f.deps.length) {
      const d = f.deps[f.i++];
      if (!s.index.has(d)) enter(d);
      else if (s.on.has(d)) s.low.set(f.file, Math.min(s.low.get(f.file), s.index.get(d)));
      continue;
    }
    frames.pop();
    if (frames.length) {
      const parent = frames[frames.length - 1].file;
      s.low.set(parent, Math.min(s.low.get(parent), s.low.get(f.file)));
    }
    if (s.low.get(f.file) === s.index.get(f.file)) {
      const id = s.index.get(f.file);
      let member;
      do {
        member = /** @type {string} */ (s.stack.pop());
        s.on.delete(member);
        component.set(member, id);
      } while (member !== f.file);
    }
  }
}

/** The shortest import path from `from` back to `to` inside their component. */
function pathBack(from, to) {
  const id = component.get(to);
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const file = /** @type {string} */ (queue.shift());
    if (file === to) break;
    for (const d of importsOf(file))
      if (!cameFrom.has(d) && component.get(d) === id) {
        cameFrom.set(d, file);
        queue.push(d);
      }
  }
  const path = [];
  for (let f = /** @type {string | null | undefined} */ (to); f; f = cameFrom.get(f)) path.unshift(f);
  return path;
}

/** The module specifier of an import-like node, or null. */
function specifierOf(node) {
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportAllDeclaration':
    case 'ExportNamedDeclaration':
    case 'ImportExpression':
      return node.source?.type === 'Literal' && typeof node.source.value === 'string' ? node.source.value : null;
    case 'TSImportEqualsDeclaration':
      return node.moduleReference.type === 'TSExternalModuleReference' && node.moduleReference.expression.type === 'Literal'
        ? String(node.moduleReference.expression.value)
        : null;
    case 'TSImportType': {
      const arg = node.argument;
      return arg?.type === 'TSLiteralType' && arg.literal.type === 'Literal' ? String(arg.literal.value) : null;
    }
    case 'CallExpression':
      return node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal'
        ? String(node.arguments[0].value)
        : null;
    default:
      return null;
  }
}

/** @type {import('eslint').Rule.RuleModule} */
export const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Dependency cycle: {{path}}' },
  },
  create(context) {
    const file = context.physicalFilename;
    if (!/\.[cm]?tsx?$/.test(file)) return {};
    const deps = importsIn(context.sourceCode.text, file);
    const known = graph.get(file);
    if (!known || known.length !== deps.length || known.some((d, i) => d !== deps[i])) {
      // this file's imports changed since the components were computed: compute them again
      graph.set(file, deps);
      if (known) {
        component = new Map();
        tarjan = newTarjan();
      }
    }
    visit(file);
    const check = (node) => {
      const specifier = specifierOf(node);
      const target = specifier === null ? null : resolve(specifier, file);
      if (!target || target === file || component.get(target) !== component.get(file)) return;
      const cwd = context.cwd;
      const path = [file, ...pathBack(target, file)].map((f) => relative(cwd, f)).join(' -> ');
      context.report({ node, messageId: 'cycle', data: { path } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: check,
      ImportExpression: check,
      TSImportEqualsDeclaration: check,
      TSImportType: check,
      'CallExpression[callee.name="require"]': check,
    };
  },
};

export const localRules = { rules: { 'no-cycle': noCycle } };
