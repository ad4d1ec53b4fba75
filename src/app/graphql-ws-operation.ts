import {
  getOperationAST,
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { SubscribePayload } from 'graphql-ws';
import { DomainError, toDomainError, type ErrorCode } from '../shared/errors';
import { depthRule, formatGraphqlError } from './graphql';
import { costExtension, createCostModel, MAX_COMPLEXITY } from './graphql-cost';
import { noNulStringsRule } from './graphql-input-rule';
import { MAX_DOCUMENT_CHARS, PARSE_OPTIONS } from './graphql-limits';
import { PERSISTED_ONLY_MESSAGE, type PersistedManifest } from './graphql-persisted';

/**
 * A `subscribe` message over WebSocket checked as /graphql checks a request (graphql-ws.ts): the
 * same document limits, validation rules, cost limit and persisted-operation rule; only
 * subscriptions are served there (queries and mutations go over HTTP, through its rate limit,
 * audit scope and answers). Errors carry the contract's codes, as HTTP answers do.
 */

/** An error of the contract, as a GraphQL error the formatter maps to its code. */
export const refusal = (code: ErrorCode, message: string) => new GraphQLError(message, { originalError: new DomainError(code, message) });

/** What a subscription runs: its document and cost. */
export interface CheckedOperation {
  document: DocumentNode;
  cost: number;
}

export interface OperationChecks {
  schema: GraphQLSchema;
  persisted: PersistedManifest | null;
  introspection: boolean;
}

/** Builds the checker of subscribe messages for a schema. */
export function operationChecker(opts: OperationChecks): (payload: SubscribePayload) => CheckedOperation | GraphQLError[] {
  const costOf = createCostModel(opts.schema);
  const rules = [...specifiedRules, depthRule, noNulStringsRule, ...(opts.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  // without introspection, validation errors name no fields (Apollo's hideSchemaDetailsFromClientErrors)
  const hide = (message: string) => (opts.introspection ? message : message.replace(/ ?Did you mean(.+?)\?$/, ''));
  return (payload) => {
    const hash = (payload.extensions?.persistedQuery as { sha256Hash?: unknown } | undefined)?.sha256Hash;
    let text = typeof payload.query === 'string' && payload.query ? payload.query : undefined;
    if (opts.persisted) {
      if (text === undefined && typeof hash === 'string') text = opts.persisted.byId(hash);
      if (text === undefined || !opts.persisted.listed(text)) return [refusal('forbidden', PERSISTED_ONLY_MESSAGE)];
    }
    if (text === undefined) return [refusal('invalid_request', 'a subscribe message needs a query')];
    if (text.length > MAX_DOCUMENT_CHARS)
      return [refusal('invalid_request', `the GraphQL document is longer than ${MAX_DOCUMENT_CHARS} characters`)];
    let document: DocumentNode;
    try {
      document = parse(text, PARSE_OPTIONS);
    } catch (err) {
      return [refusal('invalid_request', err instanceof Error ? err.message : 'the document does not parse')];
    }
    const invalid = validate(opts.schema, document, rules);
    if (invalid.length) return invalid.map((e) => refusal('invalid_request', hide(e.message)));
    const op = getOperationAST(document, payload.operationName ?? undefined);
    if (!op) return [refusal('invalid_request', 'the operation to run is not named, or no such operation')];
    if (op.operation !== 'subscription')
      return [
        refusal('invalid_request', `only subscriptions are served over WebSocket; send ${op.operation} operations to /graphql over HTTP`),
      ];
    let cost: number;
    try {
      cost = costOf(document, payload.variables ?? undefined, payload.operationName ?? undefined);
    } catch (err) {
      return [refusal('invalid_request', err instanceof Error ? err.message : 'query too large')];
    }
    if (cost > MAX_COMPLEXITY) return [refusal('invalid_request', `query complexity ${cost} exceeds the limit of ${MAX_COMPLEXITY}`)];
    return { document, cost };
  };
}

/** Errors as the contract formats them (`formatGraphqlError`); `onInternal` hears the unexpected ones. */
export function formatErrors(errors: readonly GraphQLError[], onInternal: (err: unknown) => void): GraphQLFormattedError[] {
  return errors.map((e) => {
    const original = e.originalError;
    if (original && !(original instanceof GraphQLError) && toDomainError(original).code === 'internal_error') onInternal(original);
    return formatGraphqlError(e.toJSON() as never, e) as unknown as GraphQLFormattedError;
  });
}

/** One `next` payload: the result with its errors formatted and the operation's cost. */
export function nextPayload(result: ExecutionResult, cost: number | null, onInternal: (err: unknown) => void): FormattedExecutionResult {
  const { errors, extensions, ...rest } = result;
  return {
    ...rest,
    ...(errors?.length ? { errors: formatErrors(errors, onInternal) } : {}),
    extensions: { ...extensions, ...costExtension(cost) },
  };
}
