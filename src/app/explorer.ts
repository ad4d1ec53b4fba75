import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import { VERSION } from '../config/version';

/**
 * The integrator's pages, served from installed packages (nothing from a CDN, so they work
 * offline and behind strict proxies): the API reference at `/docs/api` (Swagger UI over the
 * OpenAPI document), a GraphQL explorer at `/graphql` in a browser (GraphiQL), and `/` pointing
 * to them and to the guides (`/docs`, app/guides.ts).
 */

const ASSETS: Record<string, { file: string; type: string }> = {
  'graphiql.min.js': { file: 'graphiql/graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.min.css': { file: 'graphiql/graphiql.min.css', type: 'text/css; charset=utf-8' },
  'react.production.min.js': { file: 'react/umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.production.min.js': { file: 'react-dom/umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphql-ws.min.js': { file: 'graphql-ws/umd/graphql-ws.min.js', type: 'text/javascript; charset=utf-8' },
};

/** The installed package's folder (its exports may hide the files the page needs). */
function packageDir(name: string): string {
  let dir = dirname(require.resolve(name));
  while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== name) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`package ${name} not found`);
    dir = up;
  }
  return dir;
}

const cache = new Map<string, Buffer>();
function asset(name: string): Buffer {
  let bytes = cache.get(name);
  if (!bytes) {
    const [pkg, ...rest] = ASSETS[name].file.split('/');
    cache.set(name, (bytes = readFileSync(join(packageDir(pkg), ...rest))));
  }
  return bytes;
}

const EXPLORER = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL explorer - Booking platform API</title>
<link rel="stylesheet" href="/graphql/assets/graphiql.min.css">
<style>html,body,#explorer{height:100%;margin:0}</style>
</head>
<body>
<div id="explorer">Loading the GraphQL explorer...</div>
<script src="/graphql/assets/react.production.min.js"></script>
<script src="/graphql/assets/react-dom.production.min.js"></script>
<script src="/graphql/assets/graphiql.min.js"></script>
<script src="/graphql/assets/graphql-ws.min.js"></script>
<script src="/graphql/assets/explorer.js"></script>
</body>
</html>
`;

/**
 * Starts GraphiQL; `?query=`, `?variables=` and `?headers=` (JSON, e.g. {"X-API-Key": "..."})
 * preset its editors. The headers (the API key with them) are kept in the browser's
 * localStorage, so a reload or a new tab finds them; the default query says so. Subscriptions
 * run over WebSocket on the same path with graphql-ws (served from this server), the Headers
 * tab's values as the connection_init payload (one connection per set of headers); queries and
 * mutations over HTTP.
 */
const EXPLORER_JS = `(function () {
  var params = new URLSearchParams(location.search);
  var http = GraphiQL.createFetcher({ url: location.pathname });
  var wsUrl = (location.protocol === 'https:' ? 'wss:' : 'ws:') + '//' + location.host + location.pathname;
  var clients = {};
  function wsClient(headers) {
    var key = JSON.stringify(headers || {});
    if (!clients[key]) clients[key] = graphqlWs.createClient({ url: wsUrl, connectionParams: headers || {}, lazy: true, retryAttempts: 0 });
    return clients[key];
  }
  function isSubscription(request, opts) {
    var doc = opts && opts.documentAST;
    var ops = doc ? doc.definitions.filter(function (d) { return d.kind === 'OperationDefinition'; }) : [];
    var op = ops.find(function (d) { return request.operationName ? d.name && d.name.value === request.operationName : true; });
    return op ? op.operation === 'subscription' : /^\\s*subscription\\b/.test(request.query || '');
  }
  var fetcher = function (request, opts) {
    if (!isSubscription(request, opts)) return http(request, opts);
    var client = wsClient(opts && opts.headers);
    return {
      subscribe: function (sink) {
        var dispose = client.subscribe(request, {
          next: function (v) { sink.next(v); },
          error: function (e) { sink.error(e instanceof Error || Array.isArray(e) ? e : new Error('the connection closed: ' + (e && e.code) + ' ' + (e && e.reason))); },
          complete: function () { sink.complete(); },
        });
        return { unsubscribe: dispose };
      },
    };
  };
  // The last headers used here (the API key) are the default of every new tab, so opening
  // /graphql again, or with another ?query=, finds them; GraphiQL keeps each tab's own too.
  var STORED_HEADERS = 'booking-api:explorer-headers';
  function store(value) { try { localStorage.setItem(STORED_HEADERS, value); } catch (e) { /* storage off */ } }
  var storedHeaders = null;
  try { storedHeaders = localStorage.getItem(STORED_HEADERS); } catch (e) { /* storage off */ }
  if (params.get('headers')) store(params.get('headers'));
  var defaultHeaders = params.get('headers') || storedHeaders || '{\\n  "X-API-Key": ""\\n}';
  ReactDOM.createRoot(document.getElementById('explorer')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery:
        '# Put your API key in the Headers tab below, then run a query.\\n' +
        "# The headers are kept in this browser's localStorage (for this site) until you clear them:\\n" +
        '# use a development key here, or clear the Headers tab when done.\\n' +
        '{ companies(first: 20) { totalCount nodes { id name timeZone } pageInfo { hasNextPage endCursor } } }\\n',
      query: params.get('query') || undefined,
      variables: params.get('variables') || undefined,
      headers: params.get('headers') || undefined,
      defaultHeaders: defaultHeaders,
      onEditHeaders: store,
      isHeadersEditorEnabled: true,
      // the Headers tab (the API key) survives a reload: kept in this browser's localStorage
      shouldPersistHeaders: true,
      defaultEditorToolsVisibility: params.get('headers') ? 'headers' : undefined,
    }),
  );
})();
`;

/**
 * A browser navigating to /graphql (Accept: text/html, no JSON media type), whatever the query
 * string (the explorer reads ?query= itself); GraphQL clients ask for JSON.
 */
function wantsHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  return req.method === 'GET' && accept.includes('text/html') && !/application\/(graphql-response\+)?json/.test(accept);
}

/** Answers a browser's GET /graphql with the explorer page; returns false when the request is for the API. */
export function serveExplorer(req: FastifyRequest, reply: FastifyReply): boolean {
  if (!wantsHtml(req)) return false;
  void reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(EXPLORER);
  return true;
}

export const SWAGGER_UI_CSP =
  "default-src 'self'; base-uri 'self'; connect-src 'self'; font-src 'self' data:; form-action 'self'; frame-ancestors 'self'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
  // the one <style> element Swagger UI writes: that of its logo in the top bar (swagger-ui-standalone-preset.js)
  "style-src 'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

export async function explorerRoutes(app: FastifyInstance): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs/api',
    uiConfig: { docExpansion: 'list', deepLinking: true, persistAuthorization: false },
    // What Swagger UI loads, all from this server: its scripts and stylesheet, the document,
    // data: images. Not the package's default policy, whose `upgrade-insecure-requests` breaks the
    // page served over plain http on any host but localhost, and which allows other hosts.
    staticCSP: SWAGGER_UI_CSP,
    // the document is served by the API itself; the UI loads it from there
    transformSpecificationClone: true,
  });
  app.get('/graphql/assets/:name', { schema: { hide: true } as object }, async (req, reply) => {
    const name = (req.params as { name: string }).name;
    if (name === 'explorer.js') return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(EXPLORER_JS);
    if (!Object.hasOwn(ASSETS, name)) return reply.code(404).send({ code: 'not_found', message: 'no such asset' });
    return reply.type(ASSETS[name].type).header('cache-control', 'public, max-age=86400').send(asset(name));
  });
  app.get('/', { schema: { hide: true } as object, config: { rateLimit: false } }, async (req, reply) => {
    const index = {
      name: 'Booking platform API',
      version: VERSION,
      docs: '/docs',
      reference: '/docs/api',
      openapi: '/v1/openapi.json',
      graphql: '/graphql',
      health: '/health',
      readme: '/readme',
    };
    if (!(req.headers.accept ?? '').includes('text/html')) return index;
    const item = (href: string, text: string) => `<li><a href="${href}">${text}</a></li>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Booking platform API</title></head><body>` +
          `<h1>Booking platform API</h1><ul>` +
          item('/docs', 'Documentation: guides and reference') +
          item('/docs/api', 'REST API reference (OpenAPI)') +
          item('/v1/openapi.json', 'OpenAPI document (JSON)') +
          item('/graphql', 'GraphQL explorer') +
          item('/health', 'Health') +
          item('/readme', 'README') +
          `</ul></body></html>`,
      );
  });
}
