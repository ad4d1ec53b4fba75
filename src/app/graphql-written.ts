import {
  defaultFieldResolver,
  getArgumentValues,
  getNamedType,
  isLeafType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLEnumType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
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
 * `writable` refuses such selections before any resolver runs.
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

/** A field of a selection, prepared once per selection and type. */
interface Step {
  key: string;
  fieldNodes: readonly FieldNode[];
  /** null: `__typename` */
  def: GraphQLField<unknown, unknown> | null;
  /** the field reads its record (graphql-js's default resolver) and takes no arguments */
  plain: boolean;
}

class Refused extends Error {}
const REFUSED = new Refused('not written');

type Completed = unknown;

const isPromise = (v: unknown): v is Promise<unknown> => typeof (v as { then?: unknown } | null)?.then === 'function';

export class OperationWriter {
  private readonly plans = new Map<GraphQLObjectType, WeakMap<readonly FieldNode[], Step[]>>();
  /** Set at the first error: the answer is left to graphql-js, so no further resolver is started. */
  private failed = false;
  private readonly fail = () => {
    this.failed = true;
  };

  constructor(private readonly ctx: WriteContext) {}

  /**
   * Whether every field below the given root fields can be written: object, list and leaf types
   * only (no interface, union or `isTypeOf`). Checked on the selection, before anything runs.
   */
  writable(parent: GraphQLObjectType, fieldNodes: readonly FieldNode[], depth = 0): boolean {
    const def = this.fieldDef(parent, fieldNodes[0]);
    if (def === undefined) return false;
    if (def === null) return true;
    const named = getNamedType(def.type);
    if (isLeafType(named)) return true;
    if (!isObjectType(named) || named.isTypeOf || depth > 64) return false;
    let steps: Step[];
    try {
      steps = this.plan(named, fieldNodes);
    } catch (err) {
      if (err instanceof Refused) return false;
      throw err;
    }
    for (const step of steps) if (!this.writable(named, step.fieldNodes, depth + 1)) return false;
    return true;
  }

  /** A root field's value, or a promise of it; throws (a refusal or the resolver's error) where graphql-js would report an error. */
  rootField(rootType: GraphQLObjectType, key: string, fieldNodes: readonly FieldNode[]): Completed {
    const step = { key, fieldNodes, def: this.fieldDef(rootType, fieldNodes[0])!, plain: false };
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

  private plan(type: GraphQLObjectType, fieldNodes: readonly FieldNode[]): Step[] {
    let byNodes = this.plans.get(type);
    if (!byNodes) this.plans.set(type, (byNodes = new WeakMap()));
    let steps = byNodes.get(fieldNodes);
    if (steps) return steps;
    steps = [];
    const { schema, fragments, variableValues } = this.ctx;
    for (const [key, nodes] of collectSubfields(schema, fragments, variableValues, type, fieldNodes)) {
      const def = this.fieldDef(type, nodes[0]);
      // a plain object's `__proto__` key would set its prototype instead
      if (def === undefined || key === '__proto__') throw REFUSED;
      const plain = def !== null && !def.resolve && def.args.length === 0;
      steps.push({ key, fieldNodes: nodes, def, plain });
    }
    byNodes.set(fieldNodes, steps);
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
      if (typeof value !== 'function') return this.value(def.type, step.fieldNodes, value, parentPath, step.key, parent);
    }
    if (this.failed) throw REFUSED;
    const path: Path = { prev: parentPath, key: step.key, typename: parent.name };
    const args = getArgumentValues(def, step.fieldNodes[0], this.ctx.variableValues);
    const value = (def.resolve ?? defaultFieldResolver)(source, args, this.ctx.contextValue, this.info(def, step.fieldNodes, parent, path));
    if (isPromise(value)) {
      this.owned(value);
      return this.owned(value.then((v) => this.value(def.type, step.fieldNodes, v, path)));
    }
    return this.value(def.type, step.fieldNodes, value, path);
  }

  /**
   * graphql-js's completeValue. `path` is the value's path; when it was not made (a record's
   * property), `key` and `parent` make it if a list or a record below needs it.
   */
  private value(
    type: GraphQLOutputType,
    fieldNodes: readonly FieldNode[],
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
          ? this.owned(item).then((v) => this.value(itemType, fieldNodes, v, itemPath))
          : this.value(itemType, fieldNodes, item, itemPath);
        if (isPromise(done)) {
          items[i] = null;
          (pending ??= []).push(this.owned(done.then((v) => void (items[i] = v))));
        } else items[i] = done;
      }
      return pending ? this.owned(Promise.all(pending).then(() => items)) : items;
    }
    if (!(type instanceof GraphQLObjectType)) throw REFUSED;
    return this.object(type, fieldNodes, value, path);
  }

  /** The keys are set in the selection's order, a pending one first as null, so the text keeps graphql-js's order. */
  private object(type: GraphQLObjectType, fieldNodes: readonly FieldNode[], source: unknown, path: Path | undefined): Completed {
    const steps = this.plan(type, fieldNodes);
    const out: Record<string, unknown> = {};
    let pending: Promise<void>[] | null = null;
    for (const step of steps) {
      const done = step.def === null ? type.name : this.field(type, source, step, path);
      if (isPromise(done)) {
        out[step.key] = null;
        (pending ??= []).push(this.owned(done.then((v) => void (out[step.key] = v))));
      } else out[step.key] = done;
    }
    return pending ? this.owned(Promise.all(pending).then(() => out)) : out;
  }
}

/** Whether an error thrown by the writer is its own refusal (as opposed to a resolver's error). */
export const isRefusal = (err: unknown): boolean => err instanceof Refused;
