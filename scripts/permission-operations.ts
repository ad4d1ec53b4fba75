import { join } from 'node:path';
import ts from 'typescript';
import { Analysis, isFn, tsFiles, unwrap, type Operation } from './permission-reading';

/**
 * The operations the server offers, read from the source: REST routes (`defineRoutes` lists and
 * `app.route` calls of the modules) and GraphQL field resolvers (`@Query`, `@Mutation`,
 * `@Subscription`, `@FieldResolver` methods of `@Resolver` classes), each with the permission
 * checks its code makes (scripts/permission-reading.ts).
 */

export function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | ts.MethodDeclaration | undefined {
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
    out.push({
      name: `${m} ${openApiPath(u)}`,
      kind: 'rest',
      auth: auth && !ts.isMethodDeclaration(auth) ? a.stringOf(auth, env) : undefined,
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

/** The checks of two functions run for one operation (a client token is let in when either lets it in). */
function merged(x: ReturnType<Analysis['summary']>, y: ReturnType<Analysis['summary']>): ReturnType<Analysis['summary']> {
  const perms = new Map(x.perms);
  for (const [p, kind] of y.perms) if (!perms.has(p) || kind === 'client-interface') perms.set(p, kind);
  return { ...x, perms, client: x.client || y.client, computed: x.computed || y.computed };
}

function graphqlOperations(a: Analysis, files: string[]): Operation[] {
  const out: Operation[] = [];
  // the subscription root is `SubscriptionRoot` (src/app/graphql.ts): `Subscription` is a record type's name
  const roots: Record<string, string> = { Query: 'Query', Mutation: 'Mutation', Subscription: 'SubscriptionRoot' };
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
          let s = a.summary(member);
          // a subscription checks when it starts: its `subscribe` option, then the method for each event
          const subscribe = kind === 'Subscription' && options ? prop(options, 'subscribe') : undefined;
          const start = subscribe && !ts.isMethodDeclaration(subscribe) ? unwrap(subscribe) : undefined;
          if (start && (ts.isArrowFunction(start) || ts.isFunctionExpression(start))) s = merged(s, a.summary(start));
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
