import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * docs/permissions.md, read from the code that checks permissions: every REST route
 * (`defineRoutes`, `app.route`) and every GraphQL field resolver (`@Query`, `@Mutation`,
 * `@Subscription`, `@FieldResolver`) is followed through the functions it calls, across files,
 * to the calls of `grants` (src/kernel/permissions.ts), the one function that decides whether a
 * key holds a permission. A function that hands one of its parameters to `grants` as the
 * permission (`companyForMerchant`, `requireGlobalPermission`, a resolver's `allowNested`) is a
 * check itself, so `companyForMerchant(ctx, cid, 'services.read')` counts where it is called.
 * `requireClient` marks what needs a client's access token; `companyForClientInterface` lets a
 * client token of the company in as well as a key holding the permission.
 *
 * Syntax only (no type checker): calls are resolved through imports and lexical scope; a call
 * through an object or an interface (`ctx.deps...`, registered handlers) is not followed. The
 * integration test compares the routes and fields found here with what the server serves, so
 * an operation this reading misses fails the test instead of dropping out of the page.
 *
 * scripts/docs-permissions.ts writes the page from what this reads.
 */

export type FnNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;
export type CheckKind = 'key' | 'client-interface';

interface Summary {
  /** permission -> how it is checked */
  perms: Map<string, CheckKind>;
  /** parameter index -> the parameter is handed to a check as the permission */
  permParams: Map<number, CheckKind>;
  /** needs a client access token (requireClient) */
  client: boolean;
  /** checks a permission computed at run time */
  computed: boolean;
}

export interface Operation {
  /** `GET /v1/companies/{cid}/services` or `Query.services` */
  name: string;
  kind: 'rest' | 'graphql';
  /** REST: the route's auth mode */
  auth?: string;
  perms: Map<string, CheckKind>;
  client: boolean;
  computed: boolean;
  file: string;
}

const SEEDS: Record<string, Partial<Summary>> = {
  'src/kernel/permissions.ts#grants': { permParams: new Map([[2, 'key']]) },
  'src/kernel/access.ts#requireClient': { client: true },
  'src/modules/company/company.access.ts#companyForClientInterface': { permParams: new Map([[2, 'client-interface']]) },
};

const REQUIRE_CLIENT = 'src/kernel/access.ts#requireClient';

const empty = (): Summary => ({ perms: new Map(), permParams: new Map(), client: false, computed: false });

export function isFn(n: ts.Node): n is FnNode {
  return ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n);
}

export function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e))
    e = e.expression;
  return e;
}

export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return tsFiles(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') && d.name !== 'testkit.ts' ? [p] : [];
  });
}

type Decl =
  | { kind: 'fn'; node: FnNode }
  | { kind: 'value'; node: ts.Expression }
  | { kind: 'class'; node: ts.ClassDeclaration }
  | { kind: 'param'; fn: FnNode; index: number };

export class Analysis {
  private files = new Map<string, ts.SourceFile>();
  private summaries = new Map<ts.Node, Summary>();
  private pending = new Set<ts.Node>();

  constructor(readonly root: string) {}

  file(path: string): ts.SourceFile {
    let sf = this.files.get(path);
    if (!sf) {
      sf = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
      this.files.set(path, sf);
    }
    return sf;
  }

  rel(path: string): string {
    return relative(this.root, path).split('\\').join('/');
  }

  private moduleFile(from: ts.SourceFile, spec: string): string | undefined {
    if (!spec.startsWith('.')) return undefined;
    const base = resolve(dirname(from.fileName), spec);
    return [`${base}.ts`, join(base, 'index.ts')].find((p) => existsSync(p));
  }

  /** What a module exports under `name`. */
  exported(path: string, name: string, seen = new Set<string>()): Decl | undefined {
    const key = `${path}#${name}`;
    if (seen.has(key)) return undefined;
    seen.add(key);
    const sf = this.file(path);
    for (const st of sf.statements) {
      const exportedHere = ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
      if (exportedHere) {
        const d = this.declIn(st, name);
        if (d) return d;
      }
      if (ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          if (el.name.text !== name) continue;
          const original = (el.propertyName ?? el.name).text;
          if (st.moduleSpecifier) {
            const target = this.moduleFile(sf, (st.moduleSpecifier as ts.StringLiteral).text);
            return target ? this.exported(target, original, seen) : undefined;
          }
          return this.topLevel(sf, original);
        }
      }
      if (ts.isExportDeclaration(st) && !st.exportClause && st.moduleSpecifier) {
        const target = this.moduleFile(sf, (st.moduleSpecifier as ts.StringLiteral).text);
        const d = target && this.exported(target, name, seen);
        if (d) return d;
      }
    }
    return undefined;
  }

  private declIn(st: ts.Statement, name: string): Decl | undefined {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === name)
      return ts.isClassDeclaration(st) ? { kind: 'class', node: st } : st.body ? { kind: 'fn', node: st } : undefined;
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
        const init = unwrap(d.initializer);
        return ts.isArrowFunction(init) || ts.isFunctionExpression(init) ? { kind: 'fn', node: init } : { kind: 'value', node: init };
      }
    }
    return undefined;
  }

  private topLevel(sf: ts.SourceFile, name: string): Decl | undefined {
    for (const st of sf.statements) {
      const d = this.declIn(st, name);
      if (d) return d;
      if (ts.isImportDeclaration(st) && st.importClause && !st.importClause.isTypeOnly) {
        const target = this.moduleFile(sf, (st.moduleSpecifier as ts.StringLiteral).text);
        const named = st.importClause.namedBindings;
        if (named && ts.isNamedImports(named)) {
          for (const el of named.elements) {
            if (el.name.text === name && !el.isTypeOnly)
              return target ? this.exported(target, (el.propertyName ?? el.name).text) : undefined;
          }
        }
      }
    }
    return undefined;
  }

  /** The declaration an identifier refers to, by lexical scope, then the module's imports. */
  resolveName(at: ts.Node, name: string): Decl | undefined {
    for (let n: ts.Node | undefined = at.parent; n; n = n.parent) {
      if (isFn(n)) {
        const index = n.parameters.findIndex((p) => ts.isIdentifier(p.name) && p.name.text === name);
        if (index >= 0) return { kind: 'param', fn: n, index };
      }
      if (ts.isBlock(n) || ts.isModuleBlock(n)) {
        for (const st of n.statements) {
          const d = this.declIn(st, name);
          if (d) return d;
        }
      }
      if (ts.isSourceFile(n)) return this.topLevel(n, name);
    }
    return undefined;
  }

  private key(node: ts.Node): string | undefined {
    const sf = node.getSourceFile();
    const name =
      ts.isFunctionDeclaration(node) && node.name
        ? node.name.text
        : ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)
          ? node.parent.name.text
          : undefined;
    return name && `${this.rel(sf.fileName)}#${name}`;
  }

  /** The function a call reaches: a name in scope, an import, `this.method` or `namespace.fn`. */
  private callee(call: ts.CallExpression): FnNode | undefined {
    const e = unwrap(call.expression);
    if (ts.isIdentifier(e)) {
      const d = this.resolveName(call, e.text);
      return d?.kind === 'fn' ? d.node : undefined;
    }
    if (ts.isPropertyAccessExpression(e) && e.expression.kind === ts.SyntaxKind.ThisKeyword) {
      const cls = findAncestor(call, ts.isClassDeclaration);
      const m = cls?.members.find((x) => ts.isMethodDeclaration(x) && x.name.getText() === e.name.text && x.body);
      return m as ts.MethodDeclaration | undefined;
    }
    return undefined;
  }

  /** The checks a function makes, itself and through every function it calls. */
  summary(fn: FnNode): Summary {
    const done = this.summaries.get(fn);
    if (done) return done;
    const seedKey = this.key(fn);
    const seed = seedKey ? SEEDS[seedKey] : undefined;
    if (seed) {
      const s = { ...empty(), ...seed };
      this.summaries.set(fn, s);
      return s;
    }
    if (this.pending.has(fn)) return empty(); // recursion: the outer visit collects the rest
    this.pending.add(fn);
    const s = empty();
    let clientOnly = false;
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n)) {
        this.applyCall(fn, n, s);
        const target = this.callee(n);
        if (target && this.key(target) === REQUIRE_CLIENT && findAncestor(n, isFn) === fn) clientOnly = true;
      }
      ts.forEachChild(n, visit);
    };
    if (fn.body) visit(fn.body);
    // A function that demands a client token lets no API key through, so the permission a
    // client-interface check would ask of a key does not apply to it.
    if (clientOnly) {
      for (const [p, kind] of s.perms) if (kind === 'client-interface') s.perms.delete(p);
      for (const [i, kind] of s.permParams) if (kind === 'client-interface') s.permParams.delete(i);
    }
    this.pending.delete(fn);
    this.summaries.set(fn, s);
    return s;
  }

  private applyCall(fn: FnNode, call: ts.CallExpression, s: Summary): void {
    const target = this.callee(call);
    if (!target) return;
    const t = this.summary(target);
    // a client token is let in when any path lets it in
    for (const [p, kind] of t.perms) if (!s.perms.has(p) || kind === 'client-interface') s.perms.set(p, kind);
    s.client ||= t.client;
    s.computed ||= t.computed;
    for (const [index, kind] of t.permParams) {
      const arg = call.arguments[index];
      if (!arg) continue;
      const value = this.stringOf(arg);
      if (value !== undefined) {
        if (s.perms.get(value) !== 'client-interface') s.perms.set(value, kind);
        continue;
      }
      const e = unwrap(arg);
      const d = ts.isIdentifier(e) ? this.resolveName(e, e.text) : undefined;
      if (d?.kind === 'param' && d.fn === fn) s.permParams.set(d.index, kind);
      else s.computed = true;
    }
  }

  /** The string an expression always holds (literals, templates and constants), else undefined. */
  stringOf(expr: ts.Expression, env: Map<string, ts.Expression> = new Map()): string | undefined {
    const e = unwrap(expr);
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isNumericLiteral(e)) return e.text;
    if (ts.isTemplateExpression(e)) {
      let out = e.head.text;
      for (const span of e.templateSpans) {
        const v = this.stringOf(span.expression, env);
        if (v === undefined) return undefined;
        out += v + span.literal.text;
      }
      return out;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const [a, b] = [this.stringOf(e.left, env), this.stringOf(e.right, env)];
      return a === undefined || b === undefined ? undefined : a + b;
    }
    if (ts.isIdentifier(e)) {
      const bound = env.get(e.text);
      if (bound) return this.stringOf(bound);
      const d = this.resolveName(e, e.text);
      if (d?.kind === 'value') return this.stringOf(d.node);
    }
    return undefined;
  }
}

export function findAncestor<T extends ts.Node>(n: ts.Node, test: (x: ts.Node) => x is T): T | undefined {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) if (test(p)) return p;
  return undefined;
}
