import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
 * `npm run docs:permissions` rewrites the generated part of the page; the test fails when it differs.
 */

type FnNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression | ts.MethodDeclaration;
type CheckKind = 'key' | 'client-interface';

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
  summary?: string;
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

function isFn(n: ts.Node): n is FnNode {
  return ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n);
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e))
    e = e.expression;
  return e;
}

function tsFiles(dir: string): string[] {
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

class Analysis {
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

function findAncestor<T extends ts.Node>(n: ts.Node, test: (x: ts.Node) => x is T): T | undefined {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) if (test(p)) return p;
  return undefined;
}

function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | ts.MethodDeclaration | undefined {
  for (const p of obj.properties) {
    if (!p.name || p.name.getText() !== name) continue;
    if (ts.isPropertyAssignment(p)) return p.initializer;
    if (ts.isShorthandPropertyAssignment(p)) return p.name;
    if (ts.isMethodDeclaration(p)) return p;
  }
  return undefined;
}

/** `/v1/companies/:cid/services` -> `/v1/companies/{cid}/services`, as the OpenAPI document spells paths. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

function restOperations(a: Analysis, files: string[]): Operation[] {
  const out: Operation[] = [];
  const route = (obj: ts.ObjectLiteralExpression, env: Map<string, ts.Expression>, viaConfig: boolean) => {
    const method = prop(obj, 'method');
    const url = prop(obj, 'url');
    const handler = prop(obj, 'handler');
    let auth = prop(obj, 'auth');
    if (viaConfig) {
      const config = prop(obj, 'config');
      auth = config && ts.isObjectLiteralExpression(config) ? prop(config, 'auth') : undefined;
    }
    if (!handler) return;
    if (!method || !url || ts.isMethodDeclaration(method) || ts.isMethodDeclaration(url))
      throw new Error(`${a.rel(obj.getSourceFile().fileName)}: a route without a readable method or url`);
    const m = a.stringOf(method, env);
    const u = a.stringOf(url, env);
    const fn = ts.isMethodDeclaration(handler) ? handler : unwrap(handler);
    if (!m || !u || !isFn(fn)) throw new Error(`${a.rel(obj.getSourceFile().fileName)}: a route whose method, url or handler is not plain`);
    const s = a.summary(fn);
    const schema = viaConfig ? prop(obj, 'schema') : undefined;
    const summary = schema && ts.isObjectLiteralExpression(schema) ? prop(schema, 'summary') : prop(obj, 'summary');
    out.push({
      name: `${m} ${openApiPath(u)}`,
      kind: 'rest',
      auth: auth && !ts.isMethodDeclaration(auth) ? a.stringOf(auth, env) : undefined,
      summary: summary && !ts.isMethodDeclaration(summary) ? a.stringOf(summary, env) : undefined,
      perms: s.perms,
      client: s.client,
      computed: s.computed,
      file: a.rel(obj.getSourceFile().fileName),
    });
  };
  /** An element of a defineRoutes list: a route object, or a call of a local function that returns one. */
  const element = (e: ts.Expression, env: Map<string, ts.Expression>) => {
    e = unwrap(e);
    if (ts.isObjectLiteralExpression(e)) return route(e, env, false);
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression)) {
      const d = a.resolveName(e, e.expression.text);
      if (d?.kind === 'fn') {
        const body = ts.isBlock(d.node.body!) ? undefined : unwrap(d.node.body as ts.Expression);
        if (body && ts.isObjectLiteralExpression(body)) {
          const bound = new Map<string, ts.Expression>();
          d.node.parameters.forEach((p, i) => ts.isIdentifier(p.name) && e.arguments[i] && bound.set(p.name.text, e.arguments[i]));
          return route(body, bound, false);
        }
      }
    }
    throw new Error(`${a.rel(e.getSourceFile().fileName)}: a route list element this reading does not follow: ${e.getText().slice(0, 80)}`);
  };
  for (const path of files) {
    const sf = a.file(path);
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n)) {
        const callee = unwrap(n.expression);
        if (ts.isIdentifier(callee) && callee.text === 'defineRoutes' && n.arguments[1]) {
          const list = unwrap(n.arguments[1]);
          if (!ts.isArrayLiteralExpression(list)) throw new Error(`${a.rel(path)}: defineRoutes without a literal list`);
          for (const el of list.elements) element(el, new Map());
        } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'route' && n.arguments[0]) {
          const obj = unwrap(n.arguments[0]);
          if (ts.isObjectLiteralExpression(obj)) route(obj, new Map(), true);
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
}

function decorator(node: ts.HasDecorators, name: string): ts.CallExpression | undefined {
  for (const d of ts.getDecorators(node) ?? []) {
    const e = d.expression;
    if (ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === name) return e;
  }
  return undefined;
}

/** The GraphQL name of an object type class: `@ObjectType('Service')`, else the class name. */
function graphqlTypeName(a: Analysis, at: ts.Node, arrow: ts.Expression): string {
  const body = ts.isArrowFunction(arrow) ? unwrap(arrow.body as ts.Expression) : arrow;
  const d = ts.isIdentifier(body) ? a.resolveName(at, body.text) : undefined;
  if (d?.kind !== 'class') throw new Error(`resolver type ${body.getText()} not found`);
  for (const deco of ['ObjectType', 'InterfaceType']) {
    const call = decorator(d.node, deco);
    const first = call?.arguments[0];
    if (first && ts.isStringLiteral(first)) return first.text;
  }
  return d.node.name!.text;
}

function graphqlOperations(a: Analysis, files: string[]): Operation[] {
  const out: Operation[] = [];
  const roots: Record<string, string> = { Query: 'Query', Mutation: 'Mutation', Subscription: 'Subscription' };
  for (const path of files) {
    const sf = a.file(path);
    for (const st of sf.statements) {
      if (!ts.isClassDeclaration(st)) continue;
      const resolver = decorator(st, 'Resolver');
      if (!resolver) continue;
      const typeName = resolver.arguments[0] ? graphqlTypeName(a, st, resolver.arguments[0]) : undefined;
      for (const member of st.members) {
        if (!ts.isMethodDeclaration(member) || !member.body) continue;
        for (const kind of [...Object.keys(roots), 'FieldResolver']) {
          const d = decorator(member, kind);
          if (!d) continue;
          const options = d.arguments.find((x) => ts.isObjectLiteralExpression(x)) as ts.ObjectLiteralExpression | undefined;
          const named = options && prop(options, 'name');
          const field = (named && !ts.isMethodDeclaration(named) && a.stringOf(named)) || member.name.getText();
          const owner = kind === 'FieldResolver' ? typeName : roots[kind];
          if (!owner) throw new Error(`${a.rel(path)}: a field resolver ${field} without a type`);
          const s = a.summary(member);
          out.push({
            name: `${owner}.${field}`,
            kind: 'graphql',
            perms: s.perms,
            client: s.client,
            computed: s.computed,
            file: a.rel(path),
          });
        }
      }
    }
  }
  return out;
}

/** Every REST route and GraphQL field with the permissions its code checks. */
export function readOperations(root = join(__dirname, '..')): Operation[] {
  const a = new Analysis(root);
  const files = tsFiles(join(root, 'src')).sort();
  const modules = files.filter((f) => a.rel(f).startsWith('src/modules/'));
  const ops = [...restOperations(a, modules), ...graphqlOperations(a, files)];
  return ops.sort((x, y) => (x.kind === y.kind ? x.name.localeCompare(y.name) : x.kind === 'rest' ? -1 : 1));
}

const BEGIN = '<!-- generated by npm run docs:permissions: do not edit below -->';
const END = '<!-- end of generated part -->';

const code = (s: string) => `\`${s}\``;

/** The generated part of docs/permissions.md. */
export function permissionsSection(ops: Operation[], permissions: readonly string[]): string {
  const lines: string[] = [];
  // the summary's first sentence (the rest is the reference's), as Markdown text
  const text = (t: string) => t.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const rest = (o: Operation, whole = false) =>
    `${code(o.name)}${o.summary ? ` ${text(whole ? o.summary : o.summary.split(/\.\s/)[0])}` : ''}`;
  const notes = (o: Operation, p?: string) => {
    const others = [...o.perms.keys()].filter((x) => x !== p).sort();
    const list = [
      p && o.perms.get(p) === 'client-interface' ? 'or a client token of the company' : '',
      p && others.length ? `also ${others.map(code).join(', ')}` : '',
      o.computed ? 'and permissions decided at run time' : '',
    ].filter(Boolean);
    return list.length ? ` (${list.join('; ')})` : '';
  };
  const both = (title: string, list: Operation[], p?: string, whole = false) => {
    const r = list.filter((o) => o.kind === 'rest');
    const g = list.filter((o) => o.kind === 'graphql');
    lines.push(`### ${title}`, '');
    if (!list.length) lines.push('No operation checks it.', '');
    if (r.length) lines.push('REST:', '', ...r.map((o) => `- ${rest(o, whole)}${notes(o, p)}`), '');
    if (g.length) lines.push('GraphQL:', '', ...g.map((o) => `- ${code(o.name)}${notes(o, p)}`), '');
  };
  const known = new Set(permissions);
  const unknown = [...new Set(ops.flatMap((o) => [...o.perms.keys()]))].filter((p) => !known.has(p));
  if (unknown.length) throw new Error(`permissions checked in code but not grantable: ${unknown.join(', ')}`);
  for (const p of permissions)
    both(
      code(p),
      ops.filter((o) => o.perms.has(p)),
      p,
    );
  const unchecked = ops.filter((o) => !o.perms.size);
  const token = unchecked.filter((o) => (o.kind === 'rest' ? o.auth === 'bearer' : o.client));
  const open = unchecked.filter((o) => o.kind === 'rest' && o.auth === 'none');
  const other = unchecked.filter((o) => !token.includes(o) && !open.includes(o));
  both('A client access token, no permission', token);
  both('No credentials', open);
  both('No check of their own', other, undefined, true);
  return lines.join('\n');
}

/** The page with its generated part replaced. */
export function renderPermissionsPage(page: string, section: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/permissions.md must hold the lines ${BEGIN} and ${END}`);
  return `${page.slice(0, start + BEGIN.length)}\n\n${section}\n${page.slice(end)}`;
}

export const PERMISSIONS_PAGE = 'docs/permissions.md';

if (require.main === module) {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PERMISSIONS } = require('../src/kernel/permissions') as typeof import('../src/kernel/permissions');
  const root = join(__dirname, '..');
  const path = join(root, PERMISSIONS_PAGE);
  const page = renderPermissionsPage(readFileSync(path, 'utf8'), permissionsSection(readOperations(root), PERMISSIONS));
  writeFileSync(path, page);
  console.log(`${PERMISSIONS_PAGE} written`);
}
