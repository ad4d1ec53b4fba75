import 'reflect-metadata';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  getNullableType,
  isListType,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  lexicographicSortSchema,
  printSchema,
} from 'graphql';
import { DateTimeScalar } from '../kernel/graphql-scalars';
import { buildSchemaSync, type NonEmptyArray } from 'type-graphql';
import type { Ctx } from '../kernel/context';
import { noNulStringsRule } from './graphql-input-rule';
import { APPLICATION_JSON, graphqlMediaType } from './graphql-http';
import { allResolvers } from './registry';
import { toDomainError } from '../shared/errors';

export const MAX_DEPTH = 20;
export const MAX_COMPLEXITY = 5000;

let cached: GraphQLSchema | null = null;

/** The code-first schema, built once per process. */
export function buildGraphqlSchema(): GraphQLSchema {
  if (!cached) {
    cached = buildSchemaSync({
      resolvers: allResolvers() as unknown as NonEmptyArray<Function>,
      validate: false,
      scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
      emitSchemaFile: false,
    });
    // type-graphql names the root types without a description; the schema documents everything.
    const query = cached.getQueryType();
    const mutation = cached.getMutationType();
    if (query) query.description = 'Reads. Every field is nullable, so one failing field leaves the others their data.';
    if (mutation) mutation.description = 'Changes; each returns the record it changed.';
  }
  return cached;
}

/** The SDL stored in `schema.graphql` (sorted, so that the file is stable). */
export function printGraphqlSchema(): string {
  return `${printSchema(lexicographicSortSchema(buildGraphqlSchema()))}\n`;
}

type Fragments = Record<string, FragmentDefinitionNode>;

/** Depth of a selection set, following fragment spreads (each fragment counted once per path). */
function depthOf(set: SelectionSetNode | undefined, fragments: Fragments, seen: Set<string>): number {
  if (!set) return 0;
  let max = 0;
  for (const sel of set.selections) {
    let d = 0;
    if (sel.kind === Kind.FIELD) d = sel.selectionSet ? 1 + depthOf(sel.selectionSet, fragments, seen) : 1;
    else if (sel.kind === Kind.INLINE_FRAGMENT) d = depthOf(sel.selectionSet, fragments, seen);
    else if (sel.kind === Kind.FRAGMENT_SPREAD && !seen.has(sel.name.value) && fragments[sel.name.value]) {
      const next = new Set(seen).add(sel.name.value);
      d = depthOf(fragments[sel.name.value].selectionSet, fragments, next);
    }
    if (d > max) max = d;
  }
  return max;
}

/** Refuses documents that are too deep or too expensive before anything executes. */
export function limitsRule(context: ValidationContext): ASTVisitor {
  const doc = context.getDocument();
  const fragments: Fragments = {};
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments[def.name.value] = def;
  // Complexity: every field costs its multiplier; below a list field the multiplier grows
  // tenfold (pages are bounded), so nested lists grow geometrically and hit the cap.
  let cost = 0;
  const multipliers = [1];
  let reported = false;
  return {
    OperationDefinition(op: OperationDefinitionNode) {
      const depth = depthOf(op.selectionSet, fragments, new Set());
      if (depth > MAX_DEPTH) {
        reported = true;
        context.reportError(
          new GraphQLError(`query depth ${depth} exceeds the limit of ${MAX_DEPTH}`, { extensions: { code: 'invalid_request' } }),
        );
      }
    },
    Field: {
      enter(node) {
        const m = multipliers[multipliers.length - 1];
        cost += m;
        const def = context.getFieldDef();
        // A list that is part of one record declares a fixed `complexity` (kernel/graphql-types.ts PART_OF_RECORD).
        const isList = !!def && isListType(getNullableType(def.type)) && typeof def.extensions?.complexity !== 'number';
        multipliers.push(isList && node.selectionSet ? m * 10 : m);
        if (cost > MAX_COMPLEXITY && !reported) {
          reported = true;
          context.reportError(
            new GraphQLError(`query complexity exceeds the limit of ${MAX_COMPLEXITY}`, { extensions: { code: 'invalid_request' } }),
          );
        }
      },
      leave() {
        multipliers.pop();
      },
    },
  };
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

/** Maps every error to the contract's codes; unexpected ones say only `internal error`. */
export function formatGraphqlError(
  formatted: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> },
  error: unknown,
): Record<string, unknown> {
  const original = (error as { originalError?: unknown })?.originalError;
  const apolloCode = formatted.extensions?.code as string | undefined;
  if (!original || original instanceof GraphQLError) {
    if (apolloCode && APOLLO_INPUT_CODES.has(apolloCode)) {
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

export function createApollo(opts: { introspection: boolean; onInternalError: (err: unknown) => void }): ApolloServer<Ctx> {
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
  return new ApolloServer<Ctx>({
    schema: buildGraphqlSchema(),
    introspection: opts.introspection,
    validationRules: [limitsRule, noNulStringsRule],
    formatError: (f, e) => formatGraphqlError(f as never, e) as never,
    includeStacktraceInErrorResponses: false,
    plugins: [reportInternal, httpStatus],
  });
}
