import 'reflect-metadata';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import {
  assertValidSchema,
  GraphQLError,
  GraphQLSchema,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FormattedExecutionResult,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { DateTimeScalar } from '../kernel/graphql-scalars';
import { buildSchemaSync, getMetadataStorage, type NonEmptyArray } from 'type-graphql';
import type { Ctx } from '../kernel/context';
import { noNulStringsRule } from './graphql-input-rule';
import { unavailablePlugin } from './graphql-unavailable';
import { APPLICATION_JSON, graphqlMediaType } from './graphql-http';
import { allResolvers, directFieldsOf, writtenFieldsOf } from './registry';
import { directAnswersPlugin, shareRootResults, stringifyResult } from './graphql-direct';
import { toDomainError } from '../shared/errors';
import { costExtension, createCostModel, MAX_COMPLEXITY, tooComplex, type CostOf } from './graphql-cost';
import { PARSE_OPTIONS } from './graphql-limits';
import { persistedOnlyPlugin, type PersistedManifest } from './graphql-persisted';

export const MAX_DEPTH = 20;

let cached: GraphQLSchema | null = null;

/**
 * Fields that only read a property of their record are left to graphql-js's default resolver
 * (type-graphql's `simple` fields): otherwise type-graphql wraps each in a resolver of its own
 * that allocates per field and value, a third of the execution time of a list of records. Only
 * while no middleware or authorisation is declared (they need the wrapper), and only where the
 * property has the field's name (the default resolver reads the schema name).
 */
function markSimpleFields(): void {
  const storage = getMetadataStorage();
  if (storage.middlewares.length || storage.resolverMiddlewares.length || storage.authorizedFields.length) return;
  if (storage.authorizedResolver.length) return;
  for (const field of storage.fields) if (field.simple === undefined && field.name === field.schemaName) field.simple = true;
}

/**
 * type-graphql wants a PubSub for `@Subscription`s, but every subscription here brings its own
 * `subscribe` (fed by the database's change feed, kernel/live.ts): no topic is ever used.
 */
const NO_TOPICS = {
  publish(): void {
    throw new Error('subscriptions are fed by the database change feed (kernel/live.ts), not by topics');
  },
  subscribe(): never {
    throw new Error('subscriptions are fed by the database change feed (kernel/live.ts), not by topics');
  },
};

/**
 * The root type of subscriptions. `Subscription` is the name of a record type (a membership a
 * company sells) since long before live updates; the root type's name is not part of any
 * document a client sends (`subscription { bookingChanged ... }`), so the record keeps its name.
 */
export const SUBSCRIPTION_ROOT = 'SubscriptionRoot';
const MEMBERSHIP_WHILE_BUILT = 'Subscription__record';

/**
 * type-graphql names the subscription root `Subscription`, which the membership record type
 * holds: the record is built under another name, then both are given their names and the
 * schema is assembled again.
 */
function buildWithSubscriptionRoot(build: () => GraphQLSchema): GraphQLSchema {
  // (a class registered twice, as a test runner's module registries may do, is two entries)
  const records = getMetadataStorage().objectTypes.filter((t) => t.name === 'Subscription');
  for (const r of records) r.name = MEMBERSHIP_WHILE_BUILT;
  let schema: GraphQLSchema;
  try {
    schema = build();
  } finally {
    for (const r of records) r.name = 'Subscription';
  }
  const root = schema.getSubscriptionType();
  if (!root) return schema;
  root.name = SUBSCRIPTION_ROOT;
  const built = schema.getType(MEMBERSHIP_WHILE_BUILT);
  if (built) built.name = 'Subscription';
  return new GraphQLSchema(schema.toConfig());
}

/** The code-first schema, built once per process. */
export function buildGraphqlSchema(): GraphQLSchema {
  if (!cached) {
    markSimpleFields();
    cached = buildWithSubscriptionRoot(() =>
      buildSchemaSync({
        resolvers: allResolvers() as unknown as NonEmptyArray<Function>,
        validate: false,
        scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
        pubSub: NO_TOPICS,
        emitSchemaFile: false,
        // type-graphql checks what it built by running the introspection query over it (about
        // half a second); the schema's own validation below finds the same faults, cheaper.
        skipCheck: true,
      }),
    );
    assertValidSchema(cached);
    // type-graphql names the root types without a description; the schema documents everything.
    const query = cached.getQueryType();
    const mutation = cached.getMutationType();
    if (query) query.description = 'Reads. Every field is nullable, so one failing field leaves the others their data.';
    if (mutation) mutation.description = 'Changes; each returns the record it changed.';
    const subscription = cached.getSubscriptionType();
    if (subscription) subscription.description = 'Live updates, over WebSocket (graphql-transport-ws, the graphql-ws library) on /graphql.';
  }
  return cached;
}

/** The SDL stored in `schema.graphql` (sorted, so that the file is stable). */
export function printGraphqlSchema(): string {
  return `${printSchema(lexicographicSortSchema(buildGraphqlSchema()))}\n`;
}

type Fragments = Record<string, FragmentDefinitionNode>;

/**
 * Depth of a selection set, following fragment spreads. A fragment's depth is computed once and
 * remembered, so fragments that spread others many times cost linear time; a spread that
 * loops back (invalid anyway) counts as depth 0.
 */
function depthOf(set: SelectionSetNode | undefined, fragments: Fragments, memo: Map<string, number>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    let d = 0;
    if (sel.kind === Kind.FIELD) d = sel.selectionSet ? 1 + depthOf(sel.selectionSet, fragments, memo) : 1;
    else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(sel.selectionSet, fragments, memo);
    else if (sel.kind === Kind.FRAGMENT_SPREAD && fragments[sel.name.value]) {
      const name = sel.name.value;
      let known = memo.get(name);
      if (known === undefined) {
        memo.set(name, 0);
        known = depthOf(fragments[name].selectionSet, fragments, memo);
        memo.set(name, known);
      }
      d = known;
    }
    if (d > max) max = d;
  }
  return max;
}

/** Refuses documents nested too deep before anything executes (fragments followed on every path). */
export function depthRule(context: ValidationContext): ASTVisitor {
  const fragments: Fragments = {};
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  return {
    OperationDefinition(op: OperationDefinitionNode) {
      const depth = depthOf(op.selectionSet, fragments, new Map());
      if (depth > MAX_DEPTH) {
        context.reportError(
          new GraphQLError(`query depth ${depth} exceeds the limit of ${MAX_DEPTH}`, { extensions: { code: 'invalid_request' } }),
        );
      }
    },
  };
}

/** Costs remembered per parsed document (Apollo keeps a parsed document per query text). */
const COSTS_PER_DOCUMENT = 32;
/** Variables longer than this as JSON (large inputs) are not worth keeping as a key. */
const MAX_COST_KEY = 2048;
const knownCosts = new WeakMap<DocumentNode, Map<string, number>>();

/**
 * A document's cost depends only on the document, its variables and the operation chosen, so a
 * query sent again (a dashboard's list, with the same variables) is not walked again.
 */
function rememberedCost(costOf: CostOf, document: DocumentNode, variables: Record<string, unknown> | undefined, operationName?: string) {
  const key = `${operationName ?? ''}\u0000${JSON.stringify(variables ?? {})}`;
  if (key.length > MAX_COST_KEY) return costOf(document, variables, operationName);
  let costs = knownCosts.get(document);
  const known = costs?.get(key);
  if (known !== undefined) return known;
  const cost = costOf(document, variables, operationName);
  if (!costs) knownCosts.set(document, (costs = new Map()));
  if (costs.size >= COSTS_PER_DOCUMENT) costs.clear();
  costs.set(key, cost);
  return cost;
}

/**
 * Refuses operations above MAX_COMPLEXITY (their variables known) before they execute, and
 * reports the cost in every answer (`extensions.cost`, after the answer's other extensions:
 * the same place whether graphql-js or the writer made the answer).
 */
function costPlugin(schema: GraphQLSchema): ApolloServerPlugin<Ctx> {
  const costOf = createCostModel(schema);
  return {
    async requestDidStart() {
      let requested: number | null = null;
      return {
        async didResolveOperation({ document, request, operationName, operation }) {
          if (operation?.operation === 'subscription')
            throw new GraphQLError('subscriptions are served over WebSocket (graphql-transport-ws, the graphql-ws library) at /graphql', {
              extensions: { code: 'invalid_request', http: { status: 400 } },
            });
          try {
            requested = rememberedCost(costOf, document, request.variables, operationName ?? undefined);
          } catch (err) {
            // graphql-query-complexity stops evaluating documents with too many nodes
            throw new GraphQLError(err instanceof Error ? err.message : 'query too large', {
              extensions: { code: 'invalid_request', http: { status: 400 } },
            });
          }
          if (requested > MAX_COMPLEXITY) throw tooComplex(requested);
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, ...costExtension(requested) };
        },
      };
    },
  };
}

/**
 * The costPlugin reports the cost of every request Apollo's pipeline answers. A request Apollo
 * refuses before (a GET without a CSRF-safe header, a body that is no GraphQL request, a batch)
 * passes no plugin: it is given the cost of a document never evaluated when it is written.
 */
function withCost(result: FormattedExecutionResult): FormattedExecutionResult {
  if (result.extensions && 'cost' in result.extensions) return result;
  return { ...result, extensions: { ...result.extensions, ...costExtension(null) } };
}

const APOLLO_INPUT_CODES = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'PERSISTED_QUERY_NOT_FOUND',
  'OPERATION_RESOLUTION_FAILURE',
]);

/**
 * Apollo's refusal of a request that names no code but the HTTP status of a client error (a
 * persisted query whose hash is not that of its text): Apollo would call it INTERNAL_SERVER_ERROR.
 */
function refusedByApollo(error: unknown, apolloCode: string | undefined): boolean {
  if (apolloCode !== 'INTERNAL_SERVER_ERROR' || !(error instanceof GraphQLError)) return false;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Maps every error to the contract's codes; unexpected ones say only `internal error`. */
export function formatGraphqlError(
  formatted: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> },
  error: unknown,
): Record<string, unknown> {
  const original = (error as { originalError?: unknown })?.originalError;
  const apolloCode = formatted.extensions?.code as string | undefined;
  if (!original || original instanceof GraphQLError) {
    if ((apolloCode && APOLLO_INPUT_CODES.has(apolloCode)) || refusedByApollo(error, apolloCode)) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: 'invalid_request' } };
    }
    if (apolloCode === 'invalid_request')
      return { message: formatted.message, locations: formatted.locations, extensions: { code: 'invalid_request' } };
  }
  const domain = toDomainError(original ?? error);
  return {
    message: domain.message,
    locations: formatted.locations,
    path: formatted.path,
    extensions: { code: domain.code, ...(domain.details ? { details: domain.details } : {}) },
  };
}

export function createApollo(opts: {
  introspection: boolean;
  onInternalError: (err: unknown) => void;
  /** GRAPHQL_PERSISTED_ONLY: only the manifest's operations run, introspection is off (graphql-persisted.ts) */
  persisted?: PersistedManifest | null;
}): ApolloServer<Ctx> {
  const persisted = opts.persisted ?? null;
  const introspection = opts.introspection && !persisted;
  const reportInternal: ApolloServerPlugin<Ctx> = {
    async requestDidStart() {
      return {
        async didEncounterErrors(rc) {
          for (const e of rc.errors) {
            const original = e.originalError;
            if (original && !(original instanceof GraphQLError) && toDomainError(original).code === 'internal_error')
              opts.onInternalError(original);
          }
        },
      };
    },
  };
  // GraphQL-over-HTTP: `application/json` answers a well-formed request with 200 whatever its
  // errors (Apollo sends 400 for documents that fail to parse or validate);
  // `application/graphql-response+json` keeps Apollo's statuses (graphql-http.ts).
  const httpStatus: ApolloServerPlugin<Ctx> = {
    async requestDidStart() {
      return {
        async willSendResponse({ request, response }) {
          const media = graphqlMediaType(request.http?.headers.get('accept') ?? undefined);
          if (!media) return;
          response.http.headers.set('content-type', `${media}; charset=utf-8`);
          if (media === APPLICATION_JSON && (response.http.status ?? 200) < 500) response.http.status = 200;
        },
      };
    },
  };
  const schema = buildGraphqlSchema();
  shareRootResults(schema, writtenFieldsOf());
  return new ApolloServer<Ctx>({
    schema,
    introspection,
    // Without introspection, validation errors name no fields ("Did you mean ...").
    hideSchemaDetailsFromClientErrors: !introspection,
    // APQ as Apollo Server keeps it, or, in persisted-only mode, the manifest by hash
    ...(persisted ? { persistedQueries: { cache: persisted.apqCache() } } : {}),
    validationRules: [depthRule, noNulStringsRule],
    // Parsing stops at the token limit (the length is checked before, in the route: graphql-limits.ts).
    parseOptions: PARSE_OPTIONS,
    formatError: (f, e) => formatGraphqlError(f as never, e) as never,
    includeStacktraceInErrorResponses: false,
    // No cache hints are used; the cache-control plugin would otherwise wrap every field resolver.
    // The explorer page is this server's own (src/app/explorer.ts), not Apollo's CDN-loaded Sandbox.
    // Prewritten answers (graphql-direct.ts) are spliced into the response text as they are.
    stringifyResult: (result) => stringifyResult(withCost(result)),
    plugins: [
      ...(persisted ? [persistedOnlyPlugin(persisted)] : []),
      costPlugin(schema),
      directAnswersPlugin(directFieldsOf(), writtenFieldsOf(), (ctx) => ctx.deps.config.graphqlDirectAnswers),
      reportInternal,
      unavailablePlugin,
      httpStatus,
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginLandingPageDisabled(),
    ],
    // The process owns SIGINT/SIGTERM (src/main.ts): the server drains before Apollo stops.
    stopOnTerminationSignals: false,
  });
}
