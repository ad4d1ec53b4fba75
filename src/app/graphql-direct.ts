import { HeaderMap, type ApolloServerPlugin, type GraphQLRequestContext, type GraphQLResponse } from '@apollo/server';
import {
  BREAK,
  getArgumentValues,
  getVariableValues,
  GraphQLError,
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type FormattedExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import type { Ctx } from '../kernel/context';
import type { DirectField } from '../kernel/graphql-direct';
import { PrewrittenJson } from '../kernel/prewritten-json';
import { DomainError } from '../shared/errors';
import { isRefusal, OperationWriter, type RootResult, type WriteContext } from './graphql-written';

/**
 * Directly answered root fields (kernel/graphql-direct.ts) through Apollo's `responseForOperation`
 * hook: it runs after parsing, validation and every `didResolveOperation` (the cost limit), so
 * only the execution is replaced, and only for a query that asks one such field (under any
 * alias, repeated, beside `__typename`) with no directive other than `@include` and `@skip`.
 * Variables and arguments are coerced by graphql-js's own functions and the root keys collected
 * by its `collectFields`. Anything else, and any error, executes as usual.
 */

const EXECUTION_DIRECTIVES = new Set(['include', 'skip']);
const plainDirectives = new WeakMap<DocumentNode, boolean>();

/** Whether the document's directives are all `@include`/`@skip` (remembered per parsed document: Apollo reuses them). */
function onlyPlainDirectives(doc: DocumentNode): boolean {
  let known = plainDirectives.get(doc);
  if (known === undefined) {
    known = true;
    visit(doc, {
      Directive(node) {
        if (EXECUTION_DIRECTIVES.has(node.name.value)) return undefined;
        known = false;
        return BREAK;
      },
    });
    plainDirectives.set(doc, known);
  }
  return known;
}

function fragmentsOf(doc: DocumentNode): Record<string, FragmentDefinitionNode> {
  const out: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const def of doc.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) out[def.name.value] = def;
  return out;
}

/**
 * The plugin. `enabled` is asked per request (the `GRAPHQL_DIRECT_ANSWERS` setting), so that one
 * server can answer the same operation both ways.
 */
export function directAnswersPlugin(
  fields: ReadonlyMap<string, DirectField>,
  written: ReadonlySet<string>,
  enabled: (ctx: Ctx) => boolean,
): ApolloServerPlugin<Ctx> {
  return {
    async requestDidStart() {
      return {
        async responseForOperation(rc): Promise<GraphQLResponse | null> {
          const op = rc.operation;
          if ((!fields.size && !written.size) || !op || op.operation !== 'query' || !enabled(rc.contextValue)) return null;
          if (!onlyPlainDirectives(rc.document)) return null;
          const schema = rc.schema;
          const queryType = schema.getQueryType();
          if (!queryType) return null;
          const coerced = getVariableValues(schema, op.variableDefinitions ?? [], rc.request.variables ?? {}, { maxErrors: 50 });
          if (coerced.errors) return null;
          const variableValues = coerced.coerced;
          const fragments = fragmentsOf(rc.document);
          const root = collectFields(schema, fragments, variableValues, queryType, op.selectionSet);
          let name: string | null = null;
          let fieldNodes: readonly FieldNode[] = [];
          for (const [, nodes] of root) {
            const field = nodes[0].name.value;
            if (field === '__typename') continue;
            if (name !== null || !fields.has(field)) {
              return writeOperation(
                rc,
                written,
                { schema, fragments, variableValues, operation: op, contextValue: rc.contextValue, rootValue: undefined },
                root,
              );
            }
            name = field;
            fieldNodes = nodes;
          }
          const def = name === null ? undefined : queryType.getFields()[name];
          if (name === null || !def) return null;
          let args: Record<string, unknown>;
          try {
            args = getArgumentValues(def, fieldNodes[0], variableValues);
          } catch {
            return null; // the execution reports it
          }
          let value: PrewrittenJson | null;
          try {
            value = await fields.get(name)!(rc.contextValue, { schema, fragments, variableValues, fieldNodes, args });
          } catch (err) {
            // the execution meets the same error and reports it as usual; anything else is worth a look
            if (!(err instanceof DomainError)) rc.contextValue.log.warn({ err, field: name }, 'direct GraphQL answer failed; executing it');
            return null;
          }
          if (!value) return null;
          const parts = rc.contextValue.prewritten;
          if (parts) partOf.set(value, parts.push(value) - 1);
          const data: Record<string, unknown> = {};
          for (const [key, nodes] of root) data[key] = nodes[0].name.value === '__typename' ? queryType.name : value;
          return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } };
        },
      };
    },
  };
}

/**
 * An operation whose root fields are all registered as written (kernel/module.ts `graphqlWritten`)
 * executed by the writer (graphql-written.ts); null leaves it to graphql-js: a field not
 * registered, a selection the writer does not take, or any error (graphql-js then meets it
 * again and reports it as usual).
 */
async function writeOperation(
  rc: GraphQLRequestContext<Ctx>,
  written: ReadonlySet<string>,
  wc: WriteContext,
  root: Map<string, readonly FieldNode[]>,
): Promise<GraphQLResponse | null> {
  const writer = new OperationWriter(wc);
  const plan = writer.plan(rc.document!, root, written);
  if (!plan.writable) return null;
  const values: unknown[] = [];
  try {
    for (const step of plan.steps) values.push(writer.rootField(step));
    const all = await Promise.all(values);
    const data: Record<string, unknown> = {};
    for (let k = 0; k < all.length; k++) data[plan.steps[k].key] = all[k];
    return { http: { status: undefined, headers: new HeaderMap() }, body: { kind: 'single', singleResult: { data } } };
  } catch (err) {
    // what was started is let finish before graphql-js runs the operation on the same context,
    // which completes the root fields' results instead of resolving them again
    await Promise.allSettled(values);
    handedOver.set(rc.contextValue, { operation: wc.operation, roots: writer.roots });
    if (!isRefusal(err) && !(err instanceof DomainError) && !(err instanceof GraphQLError))
      rc.contextValue.log.warn({ err }, 'written GraphQL answer failed; executing it');
    return null;
  }
}

/**
 * Root results the writer got before it gave up, by the request's context (the object Apollo
 * hands both to the plugins and to graphql-js's execution).
 */
const handedOver = new WeakMap<object, { operation: OperationDefinitionNode; roots: Map<string, RootResult> }>();
const sharing = new WeakSet<GraphQLField<unknown, unknown>>();

/**
 * Wraps the resolvers of the written root fields so that, when the writer leaves an operation to
 * graphql-js (a field's error), each root field the writer resolved is completed from the result
 * the writer got (the list already read, or the error already met) instead of being resolved
 * again: an operation with one failing field sends the statements of its fields once. What
 * lies below was read through the request's DataLoaders, which keep their answers for the
 * request. Idempotent (the schema is built once per process).
 */
export function shareRootResults(schema: GraphQLSchema, written: ReadonlySet<string>): void {
  const fields = schema.getQueryType()?.getFields() ?? {};
  for (const name of written) {
    const field = fields[name];
    if (!field?.resolve || sharing.has(field)) continue;
    sharing.add(field);
    const resolve = field.resolve;
    field.resolve = (source, args, context, info) => {
      const memo = info.path.prev === undefined ? handedOver.get(context as object) : undefined;
      const known = memo?.operation === info.operation ? memo.roots.get(String(info.path.key)) : undefined;
      if (!known) return resolve(source, args, context, info);
      memo!.roots.delete(String(info.path.key));
      if ('error' in known) throw known.error;
      return known.value;
    };
  }
}

/** The marker number of a prewritten value whose bytes the /graphql route sends itself. */
const partOf = new WeakMap<PrewrittenJson, number>();

/**
 * A prewritten value's place in the response text: NUL, its number, NUL. JSON text never holds a
 * raw NUL (JSON.stringify escapes it), so the markers cannot be confused with anything else.
 */
const MARK = '\u0000';

/**
 * Runs the /graphql route's handler (`answer`) so that the prewritten values of its response go
 * out as the bytes they are: Apollo's response text carries a marker where each goes, and the
 * bytes are joined around them here (a 0.8 MB month of times is neither decoded into a string
 * nor encoded back). Any other answer is returned as it is.
 */
export async function sendingPrewritten<T>(ctx: Ctx, answer: () => Promise<T>): Promise<T | Buffer> {
  const parts: PrewrittenJson[] = [];
  ctx.prewritten = parts;
  let out: T;
  try {
    out = await answer();
  } finally {
    ctx.prewritten = undefined;
  }
  if (!parts.length || typeof out !== 'string' || !out.includes(MARK)) return out;
  // text, number, text, number, ..., text
  const pieces = out.split(MARK);
  if (pieces.length === 3) {
    const inPlace = aroundInPlace(pieces[0], parts[Number(pieces[1])], pieces[2]);
    if (inPlace) return inPlace;
  }
  return Buffer.concat(pieces.map((piece, k) => (k % 2 ? parts[Number(piece)].bytes : Buffer.from(piece))));
}

/** `head + value + tail` written into the spare memory around the value's bytes, when it has enough; else null. */
function aroundInPlace(head: string, value: PrewrittenJson, tail: string): Buffer | null {
  const { bytes } = value;
  const headSize = Buffer.byteLength(head);
  const tailSize = Buffer.byteLength(tail);
  if (!value.spare || bytes.byteOffset < headSize || bytes.buffer.byteLength - bytes.byteOffset - bytes.length < tailSize) return null;
  const out = Buffer.from(bytes.buffer, bytes.byteOffset - headSize, headSize + bytes.length + tailSize);
  out.write(head, 0);
  out.write(tail, headSize + bytes.length);
  return out;
}

/**
 * Apollo's `stringifyResult`: `JSON.stringify(result) + "\n"` as Apollo writes it, with each
 * prewritten root field's JSON (or, when the route sends its bytes, its marker) where its value goes.
 */
export function stringifyResult(result: FormattedExecutionResult): string {
  const data = result.data;
  if (!data || !Object.values(data).some((v) => v instanceof PrewrittenJson)) return `${JSON.stringify(result)}\n`;
  return `${objectText(result, (k, v) => (k === 'data' ? objectText(v as Record<string, unknown>, prewritten) : JSON.stringify(v)))}\n`;
}

function prewritten(_: string, v: unknown): string | undefined {
  if (!(v instanceof PrewrittenJson)) return JSON.stringify(v);
  const part = partOf.get(v);
  return part === undefined ? v.text : `${MARK}${part}${MARK}`;
}

/** An object's JSON with each value's text from `text` (undefined: the key is left out, as JSON.stringify leaves it). */
function objectText(obj: object, text: (key: string, value: unknown) => string | undefined): string {
  let out = '{';
  for (const [k, v] of Object.entries(obj)) {
    const t = text(k, v);
    if (t === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${t}`;
  }
  return `${out}}`;
}
