import { createHash } from 'node:crypto';
import { ArgsType, Field, Int, ObjectType, type ClassType, type FieldOptions } from 'type-graphql';
import type { GraphQLScalarType } from 'graphql';
import { DomainError, invalid } from '../shared/errors';
import { parsePage } from '../shared/pagination';
import { DOC } from './graphql-types';

/**
 * Relay cursor connections (docs/design/graphql.md, "Paging"): every growing list of the GraphQL
 * API answers `XConnection {edges {cursor node}, nodes, pageInfo, totalCount}` and takes
 * `first`/`after`, `last`/`before`.
 *
 * A cursor is the node's sort-key values and id (keyset), so it points between two nodes of the
 * order rather than at a position: rows inserted or deleted before it do not shift the next page,
 * and the row it was made from may be gone. It is bound to its list by a tag (the field, the
 * record or company it hangs from and the filter arguments), so a cursor of another list is
 * refused rather than silently read as a position in this one. The text is base64url JSON:
 * opaque to clients, who must not build or read it.
 *
 * The offset arguments and item fields of the former pages (`limit`, `offset`, `total`, the
 * plural item field) stay for one version, deprecated (docs/design/graphql-breaking-changes.md).
 */

const DEPRECATED_OFFSET = 'Offset paging is replaced by cursors: use first/after (or last/before). Removed in the next version.';
const DEPRECATED_FIELD =
  'Offset pages are replaced by connections: use nodes (or edges), totalCount and pageInfo. Removed in the next version.';

@ObjectType('PageInfo', { description: 'Where the page of a connection lies in its list (Relay cursor connections).' })
export class PageInfoType {
  @Field({
    description:
      'With first: whether nodes follow this page (before `before`, when given). With last: whether a node exists at or after `before`.',
  })
  hasNextPage!: boolean;
  @Field({
    description:
      'With last: whether nodes precede this page (after `after`, when given). With first: whether a node exists at or before `after`.',
  })
  hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Cursor of the first edge of the page; null when the page is empty.' })
  startCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Cursor of the last edge of the page; null when the page is empty.' })
  endCursor!: string | null;
}

/** Paging arguments of a list field: `@Args(() => ConnectionArgs) page: ConnectionArgs`. */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: 'Return the first n nodes, 1 to 100 (default 100; not with last).' })
  first?: number | null;
  @Field(() => String, { nullable: true, description: 'Return the nodes after this cursor (an edge cursor or endCursor of this list).' })
  after?: string | null;
  @Field(() => Int, { nullable: true, description: 'Return the last n nodes, 1 to 100 (not with first).' })
  last?: number | null;
  @Field(() => String, {
    nullable: true,
    description: 'Return the nodes before this cursor (an edge cursor or startCursor of this list).',
  })
  before?: string | null;
  @Field(() => Int, { nullable: true, deprecationReason: DEPRECATED_OFFSET, description: DOC.limit }) limit?: number | null;
  @Field(() => Int, { nullable: true, deprecationReason: DEPRECATED_OFFSET, description: DOC.offset }) offset?: number | null;
}

/**
 * `${name}Connection` and `${name}Edge` for nodes of `node`. `items` names the deprecated item
 * field of the former page (`ServicePage.services`), kept for one version.
 */
export function connectionType(name: string, node: () => ClassType | GraphQLScalarType, description: string, items: string): ClassType {
  @ObjectType(`${name}Connection`, { description })
  class Connection {}
  connectionFields(Connection, name, node, items);
  return Connection;
}

/** `${name}Edge`, made once for the connections of one node type. */
function edgeType(name: string, node: () => ClassType | GraphQLScalarType): ClassType {
  const made = edges.get(name);
  if (made) return made;
  @ObjectType(`${name}Edge`, { description: `An edge of a connection of ${name} nodes: a node and the cursor that points after it.` })
  class Edge {
    @Field({ description: 'Opaque cursor of this node, for after/before of the same list.' }) cursor!: string;
  }
  Field(() => node(), { description: 'The node.' })(Edge.prototype, 'node');
  edges.set(name, Edge);
  return Edge;
}
const edges = new Map<string, ClassType>();

/**
 * The fields of a connection added to an object type class of its own (one with more fields,
 * such as the side lists of `BookingConnection`), and its `${name}Edge` type.
 */
export function connectionFields(target: ClassType, name: string, node: () => ClassType | GraphQLScalarType, items: string): void {
  const Edge = edgeType(name, node);
  const field = (key: string, type: () => unknown, options: FieldOptions) => Field(type as never, options)(target.prototype, key);
  const deprecated = { deprecationReason: DEPRECATED_FIELD };
  field('edges', () => [Edge], { description: 'The edges of this page, in the order of the list.' });
  field('nodes', () => [node()], { description: 'The nodes of this page (the edges without their cursors).' });
  field('pageInfo', () => PageInfoType, { description: 'Cursors and neighbours of this page.' });
  field('totalCount', () => Int, { description: 'Number of nodes in the whole list (its filters applied, the cursors ignored).' });
  field('total', () => Int, { ...deprecated, description: DOC.total });
  field('limit', () => Int, { ...deprecated, description: DOC.pageLimit });
  field('offset', () => Int, {
    ...deprecated,
    nullable: true,
    description:
      'The offset used; null for a page asked for by cursor whose position was not counted (past the first page of a list read from the database).',
  });
  field(items, () => [node()], { ...deprecated, description: `The ${items} of this page (same as nodes).` });
}

// ---------------------------------------------------------------------------------------------
// Sort keys, list tags and cursors

/** One key of a list's order; the last key of every list is the id. */
export interface SortKey<T> {
  /** the column in SQL (`start_time`), or the entity property for ORM lists */
  column: string;
  desc?: boolean;
  /**
   * what its values are, checked in every cursor a client sends back (a value of another type
   * would fail in the database's comparison): a 32-bit or 64-bit integer (within JavaScript's
   * safe integers), a UUID (columns named `id` or `*_id`), or text (the default); `time` keys
   * are epoch milliseconds
   */
  type?: 'int' | 'bigint' | 'uuid' | 'text';
  /** a timestamp: compared as epoch milliseconds, sent to SQL as a Date */
  time?: boolean;
  /**
   * a timestamp the database may have set with microseconds (`now()`): ordered and compared
   * in SQL at millisecond precision, as its cursor holds it
   */
  micro?: boolean;
  /** the key's value of a node (or row) */
  of: (node: T) => unknown;
}

export type KeyValue = string | number | null;

/** What a list's cursors are bound to: the field, the record or company it hangs from, and its filter arguments. */
export function listTag(field: string, scope: string, filter?: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([field, scope.toLowerCase(), canonical(filter)]))
    .digest('base64url')
    .slice(0, 12);
}

/** Key order and absent values must not change the tag of one filter. */
function canonical(v: unknown): unknown {
  if (v === undefined || v === null) return null;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(canonical);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined && x !== null) out[k] = canonical(x);
    }
    return out;
  }
  return v;
}

function keyValue(k: SortKey<never>, v: unknown): KeyValue {
  if (v === undefined || v === null) return null;
  if (k.time) return v instanceof Date ? v.getTime() : typeof v === 'number' ? v : Date.parse(String(v));
  if (typeof v === 'number' || typeof v === 'string') return v;
  return String(v);
}

export interface ListSpec<T> {
  /** from listTag() */
  tag: string;
  /** the list's total order, id last */
  keys: SortKey<T>[];
  /** the most first/last may ask for (the REST list's limit), and the default first */
  max?: number;
  fallback?: number;
}

export function cursorOf<T>(spec: ListSpec<T>, node: T): string {
  const values = spec.keys.map((k) => keyValue(k as SortKey<never>, k.of(node)));
  return Buffer.from(JSON.stringify([spec.tag, ...values])).toString('base64url');
}

function badCursor(arg: string): DomainError {
  return invalid(`${arg}: invalid_cursor: not a cursor of this list (cursors are bound to the list, its parent and its filters)`, [
    { path: arg, message: 'invalid_cursor' },
  ]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_TIME = 8.64e15;

/** Whether a value read from a cursor is of the key's type. */
function fits(k: SortKey<never>, v: unknown): boolean {
  if (k.time) return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= MAX_TIME;
  const type = k.type ?? (k.column === 'id' || /_id$|ID$/.test(k.column) ? 'uuid' : 'text');
  if (type === 'int' || type === 'bigint') return Number.isSafeInteger(v) && (type === 'bigint' || Math.abs(v as number) <= 2 ** 31 - 1);
  if (type === 'uuid') return typeof v === 'string' && UUID.test(v);
  return typeof v === 'string';
}

function readCursor<T>(spec: ListSpec<T>, arg: string, text: string): KeyValue[] {
  if (text.length > 1024 || !/^[A-Za-z0-9_-]+$/.test(text)) throw badCursor(arg);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badCursor(arg);
  }
  if (!Array.isArray(parsed) || parsed.length !== spec.keys.length + 1 || parsed[0] !== spec.tag) throw badCursor(arg);
  const values = parsed.slice(1) as unknown[];
  values.forEach((v, i) => {
    if (v === null ? i === spec.keys.length - 1 : !fits(spec.keys[i], v)) throw badCursor(arg);
  });
  return values as KeyValue[];
}

/** The keys of the usual orders; `id` is the last key of each. */
interface Stored {
  id: string;
  createdAt: string;
}
const byId: SortKey<Stored> = { column: 'id', of: (n) => n.id };
export const ORDERS = {
  /** oldest first */
  creation: [{ column: 'created_at', time: true, of: (n) => n.createdAt }, byId] as SortKey<Stored>[],
  /** newest first (ties by id) */
  newest: [{ column: 'created_at', time: true, desc: true, of: (n) => n.createdAt }, byId] as SortKey<Stored>[],
  /** rules, in the order they are chosen: priority (highest first), then the most recently created */
  rules: [
    { column: 'priority', desc: true, type: 'int', of: (n: Stored & { priority: number }) => n.priority },
    { column: 'created_at', time: true, desc: true, of: (n: Stored) => n.createdAt },
    byId,
  ] as SortKey<Stored & { priority: number }>[],
  /** by start, then id */
  start: [{ column: 'start_time', time: true, of: (n: { startTime: string | null }) => n.startTime }, byId] as SortKey<{
    id: string;
    startTime: string | null;
  }>[],
};

/** The same orders for lists read with MikroORM, whose keys name entity properties. */
export const ORM_ORDERS = {
  creation: ORDERS.creation.map((k) => ({ ...k, column: k.column === 'created_at' ? 'createdAt' : k.column })),
  newest: ORDERS.newest.map((k) => ({ ...k, column: k.column === 'created_at' ? 'createdAt' : k.column })),
};

/** The spec of a list: `field` of the record or company `scope`, with its filter arguments. */
export const listSpec = <T>(keys: SortKey<T>[], field: string, scope: string, filter?: unknown): ListSpec<T> => ({
  tag: listTag(field, scope, filter),
  keys,
});

// ---------------------------------------------------------------------------------------------
// Arguments

/** A page asked for by cursor, or (deprecated) by offset. */
export type Window =
  | { kind: 'offset'; limit: number; offset: number }
  | { kind: 'cursor'; size: number; forward: boolean; after: KeyValue[] | null; before: KeyValue[] | null };

function count(name: string, v: number | null | undefined, max: number): number | null {
  if (v === undefined || v === null) return null;
  if (!Number.isSafeInteger(v)) throw invalid(`${name} must be an integer`, [{ path: name, message: 'must be an integer' }]);
  if (v < 1) throw invalid(`${name} must be at least 1`, [{ path: name, message: 'must be at least 1' }]);
  if (v > max) throw invalid(`${name} must be at most ${max}`, [{ path: name, message: `must be at most ${max}` }]);
  return v;
}

/** Whether the (deprecated) offset arguments were given: the page is then read by offset. */
export const isOffsetPage = (args: ConnectionArgs): boolean =>
  (args.limit !== undefined && args.limit !== null) || (args.offset !== undefined && args.offset !== null);

/** Validates the paging arguments of one list (400 `invalid_request` as the REST lists' limits). */
export function windowOf<T>(args: ConnectionArgs, spec: ListSpec<T>): Window {
  const max = spec.max ?? 100;
  const has = (v: unknown) => v !== undefined && v !== null;
  const cursorArgs = has(args.first) || has(args.after) || has(args.last) || has(args.before);
  if (isOffsetPage(args)) {
    if (cursorArgs)
      throw invalid('limit/offset cannot be combined with first/after/last/before', [{ path: 'limit', message: 'not with cursors' }]);
    return { kind: 'offset', ...parsePage({ limit: args.limit, offset: args.offset }, max, spec.fallback ?? 100) };
  }
  const first = count('first', args.first, max);
  const last = count('last', args.last, max);
  if (first !== null && last !== null) throw invalid('first and last cannot be combined', [{ path: 'last', message: 'not with first' }]);
  return {
    kind: 'cursor',
    size: first ?? last ?? Math.min(spec.fallback ?? 100, max),
    forward: last === null,
    after: has(args.after) ? readCursor(spec, 'after', args.after!) : null,
    before: has(args.before) ? readCursor(spec, 'before', args.before!) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// The answer

export type Lazy<V> = V | (() => Promise<V>);

/** What a connection field answers (the default resolver calls the lazy parts only when selected). */
export interface ConnectionJson<T> {
  /** made when selected: a cursor per node costs a key read and an encoding */
  edges: () => { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: { hasNextPage: Lazy<boolean>; hasPreviousPage: Lazy<boolean>; startCursor: string | null; endCursor: string | null };
  totalCount: Lazy<number>;
  total: Lazy<number>;
  limit: number;
  offset: number | null;
  [items: string]: unknown;
}

/** A connection of the nodes of a page whose neighbours and total are known (or lazy). */
export function connectionAnswer<T>(
  spec: ListSpec<T>,
  items: string,
  nodes: T[],
  more: { next: Lazy<boolean>; previous: Lazy<boolean>; total: Lazy<number>; limit: number; offset: number | null },
): ConnectionJson<T> {
  let edges: { cursor: string; node: T }[] | undefined;
  return {
    edges: () => (edges ??= nodes.map((node) => ({ cursor: cursorOf(spec, node), node }))),
    nodes,
    pageInfo: {
      hasNextPage: more.next,
      hasPreviousPage: more.previous,
      startCursor: nodes.length ? cursorOf(spec, nodes[0]) : null,
      endCursor: nodes.length ? cursorOf(spec, nodes[nodes.length - 1]) : null,
    },
    totalCount: more.total,
    total: more.total,
    limit: more.limit,
    offset: more.offset,
    [items]: nodes,
  };
}

/** The connection with each node turned into the GraphQL form by `f` (the cursors stay). */
export function mapNodes<T, U>(c: ConnectionJson<T>, items: string, f: (node: T) => U): ConnectionJson<U> {
  const nodes = c.nodes.map(f);
  return { ...c, edges: () => c.edges().map((e, i) => ({ cursor: e.cursor, node: nodes[i] })), nodes, [items]: nodes };
}

/** Orders two key tuples as the list does (nulls after values, as PostgreSQL sorts ascending). */
function compareKeys<T>(keys: SortKey<T>[], a: KeyValue[], b: KeyValue[]): number {
  for (let i = 0; i < keys.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    const c = x === null ? 1 : y === null ? -1 : x < y ? -1 : x > y ? 1 : 0;
    if (c !== 0) return keys[i].desc ? -c : c;
  }
  return 0;
}

/**
 * A page of a list already in memory, in the list's order (the order of `spec.keys`). A cursor
 * is found by the node that holds its keys; when that node is gone (deleted, or its keys
 * changed), at the first node that sorts after it, comparing strings by code point (the order of
 * the list's statement may differ for names: those cursors then start at that point of the list).
 */
export function connectionOf<T>(all: readonly T[], args: ConnectionArgs, spec: ListSpec<T>, items: string): ConnectionJson<T> {
  const w = windowOf(args, spec);
  if (w.kind === 'offset') {
    const nodes = all.slice(w.offset, w.offset + w.limit);
    return connectionAnswer(spec, items, nodes, {
      next: w.offset + w.limit < all.length,
      previous: w.offset > 0 && all.length > 0,
      total: all.length,
      limit: w.limit,
      offset: w.offset,
    });
  }
  let read: KeyValue[][] | undefined;
  /** index of the first node after (strict) or at-or-after (!strict) the cursor */
  const position = (cursor: KeyValue[], strict: boolean): number => {
    const keys = (read ??= all.map((n) => spec.keys.map((k) => keyValue(k as SortKey<never>, k.of(n)))));
    const at = keys.findIndex((k) => compareKeys(spec.keys, k, cursor) === 0);
    if (at >= 0) return strict ? at + 1 : at;
    const i = keys.findIndex((k) => compareKeys(spec.keys, k, cursor) > 0);
    return i < 0 ? all.length : i;
  };
  const lo = w.after ? position(w.after, true) : 0;
  const hi = Math.max(lo, w.before ? position(w.before, false) : all.length);
  const start = w.forward ? lo : Math.max(lo, hi - w.size);
  const end = w.forward ? Math.min(hi, lo + w.size) : hi;
  return connectionAnswer(spec, items, all.slice(start, end), {
    next: w.forward ? end < hi : hi < all.length,
    previous: w.forward ? lo > 0 : start > lo,
    total: all.length,
    limit: w.size,
    offset: start,
  });
}
