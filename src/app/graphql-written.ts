import {
  BREAK,
  defaultFieldResolver,
  visit,
  type DocumentNode,
  getArgumentValues,
  getNamedType,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLID,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLString,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields';
import type { Path } from 'graphql/jsutils/Path';

/**
 * Executes a query's root fields the way graphql-js does, into plain objects. For a list of
 * records graphql-js spends most of its time on objects per field (resolve info, argument
 * values, paths) and on its result's null-prototype objects, which V8 keeps as dictionaries and
 * stringifies slowly. Here a field read from its record costs a property read (and its scalar's
 * `serialize`), the records of one selection share one object shape, and the rest (resolvers,
 * their arguments, info and paths, DataLoader batches, the order of calls and of keys) is as
 * graphql-js does it, so the answer's JSON is the same text.
 *
 * Exact or nothing: anything graphql-js would answer with an error (a resolver's error, a null in
 * a non-null field, a value a scalar cannot serialise, a list that is not an array) throws, and
 * the caller leaves the operation to graphql-js, which meets the same error and reports it as
 * usual. Interfaces, unions, `isTypeOf` and a response key `__proto__` are not handled:
 * `plan` marks such selections as not writable before any resolver runs.
 */

/** What the writer needs of an operation (graphql-js's execution context, less what it does not use). */
export interface WriteContext {
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variableValues: Record<string, unknown>;
  operation: OperationDefinitionNode;
  contextValue: unknown;
  rootValue: unknown;
}

/**
 * A field of a selection. What is below it (the fields of its type, or of each object type a
 * list of it holds) is prepared when first needed and kept with it: per request, or, for an
 * operation whose selection does not depend on its variables, with the parsed document.
 */
export interface Step {
  key: string;
  fieldNodes: readonly FieldNode[];
  /** null: `__typename` */
  def: GraphQLField<unknown, unknown> | null;
  /** the field reads its record (graphql-js's default resolver) and takes no arguments */
  plain: boolean;
  /** for a plain field of a leaf type: its value's serialisation, and whether null is refused */
  leaf?: (value: unknown) => unknown;
  nonNull?: boolean;
  sub?: Map<GraphQLObjectType, Step[]>;
}

/** The root fields of an operation (in response order) and whether the writer takes them. */
export interface OperationPlan {
  steps: Step[];
  writable: boolean;
}

class Refused extends Error {}
const REFUSED = new Refused('not written');

type Completed = unknown;

const isPromise = (v: unknown): v is Promise<unknown> => typeof (v as { then?: unknown } | null)?.then === 'function';

/** Plans of operations whose selection is the same whatever their variables (no `@include`/`@skip`). */
const kept = new WeakMap<OperationDefinitionNode, OperationPlan>();
const conditional = new WeakMap<OperationDefinitionNode, boolean>();

/** Whether the operation (or a fragment of its document) has `@include` or `@skip`. */
function dependsOnVariables(doc: DocumentNode, op: OperationDefinitionNode): boolean {
  let known = conditional.get(op);
  if (known === undefined) {
    known = false;
    visit(doc, {
      Directive(node) {
        if (node.name.value !== 'include' && node.name.value !== 'skip') return undefined;
        known = true;
        return BREAK;
      },
    });
    conditional.set(op, known);
  }
  return known;
}

/** What a root field's resolver gave the writer: its value (or promise), or what it threw. */
export type RootResult = { value: unknown } | { error: unknown };

export class OperationWriter {
  /**
   * The root resolvers' results by response key, so that graphql-js, when the answer is left to
   * it, completes them instead of resolving the root fields again (graphql-direct.ts).
   */
  readonly roots = new Map<string, RootResult>();
  /** Set at the first error: the answer is left to graphql-js, so no further resolver is started. */
  private failed = false;
  private readonly fail = () => {
    this.failed = true;
  };

  constructor(private readonly ctx: WriteContext) {}

  /**
   * The plan of the operation's root fields (`root`: graphql-js's collectFields of the root
   * type), `writable` when every field below is an object, a list or a leaf (no interface,
   * union, `isTypeOf` or `__proto__` key) and every root field one of `written`.
   */
  plan(doc: DocumentNode, root: Map<string, readonly FieldNode[]>, written: ReadonlySet<string>): OperationPlan {
    const op = this.ctx.operation;
    const keep = !dependsOnVariables(doc, op);
    const known = keep ? kept.get(op) : undefined;
    if (known) return known;
    const rootType = this.ctx.schema.getQueryType()!;
    const steps: Step[] = [];
    let writable = true;
    for (const [key, nodes] of root) {
      const def = this.fieldDef(rootType, nodes[0]);
      if (key === '__proto__' || def === undefined || (def !== null && !written.has(def.name))) writable = false;
      steps.push({ key, fieldNodes: nodes, def: def ?? null, plain: false });
    }
    for (const step of steps) if (writable && !this.writable(rootType, step, 0)) writable = false;
    const plan = { steps, writable };
    if (keep) kept.set(op, plan);
    return plan;
  }

  private writable(parent: GraphQLObjectType, step: Step, depth: number): boolean {
    if (step.def === null) return true;
    const named = getNamedType(step.def.type);
    if (isLeafType(named)) return true;
    if (!isObjectType(named) || named.isTypeOf || depth > 64) return false;
    let steps: Step[];
    try {
      steps = this.below(named, step);
    } catch (err) {
      if (err instanceof Refused) return false;
      throw err;
    }
    for (const s of steps) if (!this.writable(named, s, depth + 1)) return false;
    return true;
  }

  /** A root field's value, or a promise of it; throws (a refusal or the resolver's error) where graphql-js would report an error. */
  rootField(step: Step): Completed {
    const rootType = this.ctx.schema.getQueryType()!;
    if (step.def === null) return rootType.name;
    try {
      return this.field(rootType, this.ctx.rootValue, step, undefined);
    } catch (err) {
      this.failed = true;
      throw err;
    }
  }

  /**
   * A promise the writer may abandon when it gives up (another field's error): its rejection
   * must not surface as an unhandled one, and stops the writing. Whoever awaits it still sees it.
   */
  private owned<T>(p: Promise<T>): Promise<T> {
    p.catch(this.fail);
    return p;
  }

  /** graphql-js's getFieldDef: `__typename` is null, `__schema`/`__type` and unknown fields undefined. */
  private fieldDef(parent: GraphQLObjectType, node: FieldNode): GraphQLField<unknown, unknown> | null | undefined {
    const name = node.name.value;
    if (name === '__typename') return null;
    if (name.startsWith('__')) return undefined;
    return parent.getFields()[name];
  }

  /** The fields below `step` for records of `type` (graphql-js's collectSubfields), prepared once. */
  private below(type: GraphQLObjectType, step: Step): Step[] {
    const sub = (step.sub ??= new Map());
    let steps = sub.get(type);
    if (steps) return steps;
    steps = [];
    const { schema, fragments, variableValues } = this.ctx;
    for (const [key, nodes] of collectSubfields(schema, fragments, variableValues, type, step.fieldNodes)) {
      const def = this.fieldDef(type, nodes[0]);
      // a plain object's `__proto__` key would set its prototype instead
      if (def === undefined || key === '__proto__') throw REFUSED;
      const plain = def !== null && !def.resolve && def.args.length === 0;
      const step: Step = { key, fieldNodes: nodes, def, plain };
      if (plain) {
        const nonNull = def.type instanceof GraphQLNonNull;
        const named = nonNull ? (def.type as GraphQLNonNull<GraphQLOutputType>).ofType : def.type;
        if (named instanceof GraphQLScalarType || named instanceof GraphQLEnumType) {
          step.leaf = leafOf(named);
          step.nonNull = nonNull;
        }
      }
      steps.push(step);
    }
    sub.set(type, steps);
    return steps;
  }

  private info(
    def: GraphQLField<unknown, unknown>,
    fieldNodes: readonly FieldNode[],
    parent: GraphQLObjectType,
    path: Path,
  ): GraphQLResolveInfo {
    const { schema, fragments, rootValue, operation, variableValues } = this.ctx;
    return {
      fieldName: def.name,
      fieldNodes,
      returnType: def.type,
      parentType: parent,
      path,
      schema,
      fragments,
      rootValue,
      operation,
      variableValues,
    };
  }

  /**
   * One field of a record (at `parentPath`): its resolver, or the record's property, completed.
   * The path is made only for a resolver, which may read it.
   */
  private field(parent: GraphQLObjectType, source: unknown, step: Step, parentPath: Path | undefined): Completed {
    const def = step.def!;
    if (step.plain && source !== null && typeof source === 'object') {
      const value = (source as Record<string, unknown>)[def.name];
      if (typeof value !== 'function') return this.value(def.type, step, value, parentPath, step.key, parent);
    }
    if (this.failed) throw REFUSED;
    const path: Path = { prev: parentPath, key: step.key, typename: parent.name };
    const args = getArgumentValues(def, step.fieldNodes[0], this.ctx.variableValues);
    let value: unknown;
    try {
      value = (def.resolve ?? defaultFieldResolver)(source, args, this.ctx.contextValue, this.info(def, step.fieldNodes, parent, path));
    } catch (err) {
      if (parentPath === undefined) this.roots.set(step.key, { error: err });
      throw err;
    }
    if (parentPath === undefined) this.roots.set(step.key, { value });
    // (a rejection of the resolver's promise is handled by the promise that completes it)
    if (isPromise(value)) return this.owned(value.then((v) => this.value(def.type, step, v, path)));
    return this.value(def.type, step, value, path);
  }

  /**
   * graphql-js's completeValue. `path` is the value's path; when it was not made (a record's
   * property), `key` and `parent` make it if a list or a record below needs it.
   */
  private value(
    type: GraphQLOutputType,
    step: Step,
    value: unknown,
    path: Path | undefined,
    key?: string,
    parent?: GraphQLObjectType,
  ): Completed {
    if (value instanceof Error) throw value;
    // instanceof rather than graphql-js's is*Type, whose checks for a copy of graphql-js loaded
    // twice cost more than the rest of a field outside production mode
    if (type instanceof GraphQLNonNull) {
      if (value === null || value === undefined) throw REFUSED;
      type = type.ofType;
    } else if (value === null || value === undefined) return null;
    if (type instanceof GraphQLScalarType || type instanceof GraphQLEnumType) {
      const serialized = type.serialize(value);
      if (serialized === null || serialized === undefined) throw REFUSED;
      return serialized;
    }
    if (key !== undefined) path = { prev: path, key, typename: parent!.name };
    if (type instanceof GraphQLList) {
      if (!Array.isArray(value)) throw REFUSED;
      const itemType = type.ofType as GraphQLOutputType;
      const items: unknown[] = new Array(value.length);
      let pending: Promise<void>[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const itemPath: Path = { prev: path, key: i, typename: undefined };
        const done = isPromise(item)
          ? item.then((v) => this.value(itemType, step, v, itemPath))
          : this.value(itemType, step, item, itemPath);
        if (isPromise(done)) {
          items[i] = null;
          (pending ??= []).push(this.owned(done.then((v) => void (items[i] = v))));
        } else items[i] = done;
      }
      return pending ? this.owned(Promise.all(pending).then(() => items)) : items;
    }
    if (!(type instanceof GraphQLObjectType)) throw REFUSED;
    return this.object(type, step, value, path);
  }

  /** The keys are set in the selection's order, a pending one first as null, so the text keeps graphql-js's order. */
  private object(type: GraphQLObjectType, parentStep: Step, source: unknown, path: Path | undefined): Completed {
    const steps = this.below(type, parentStep);
    const out: Record<string, unknown> = {};
    let pending: Promise<void>[] | null = null;
    const record = source !== null && typeof source === 'object' ? (source as Record<string, unknown>) : null;
    for (const step of steps) {
      // a plain leaf (most fields of a list of records): the property, null-checked and serialised
      // as value() does it, without its checks of the type
      if (step.leaf !== undefined && record !== null) {
        const v = record[step.def!.name];
        if (typeof v !== 'function') {
          if (v === null || v === undefined) {
            if (step.nonNull) throw REFUSED;
            out[step.key] = null;
            continue;
          }
          if (v instanceof Error) throw v;
          const serialized = step.leaf(v);
          if (serialized === null || serialized === undefined) throw REFUSED;
          out[step.key] = serialized;
          continue;
        }
      }
      const done = step.def === null ? type.name : this.field(type, source, step, path);
      if (isPromise(done)) {
        out[step.key] = null;
        (pending ??= []).push(this.owned(done.then((v) => void (out[step.key] = v))));
      } else out[step.key] = done;
    }
    return pending ? this.owned(Promise.all(pending).then(() => out)) : out;
  }
}

/**
 * A leaf type's `serialize`. String and ID answer a string with itself, Boolean a boolean
 * (graphql-js's own serialisers do exactly that), so those values skip the call.
 */
function leafOf(type: GraphQLScalarType | GraphQLEnumType): (value: unknown) => unknown {
  const serialize = (v: unknown) => type.serialize(v);
  if (type === GraphQLString || type === GraphQLID) return (v) => (typeof v === 'string' ? v : serialize(v));
  if (type === GraphQLBoolean) return (v) => (typeof v === 'boolean' ? v : serialize(v));
  return serialize;
}

/** Whether an error thrown by the writer is its own refusal (as opposed to a resolver's error). */
export const isRefusal = (err: unknown): boolean => err instanceof Refused;
