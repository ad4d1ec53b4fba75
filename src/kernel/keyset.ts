import {
  connectionAnswer,
  windowOf,
  type ConnectionArgs,
  type ConnectionJson,
  type KeyValue,
  type ListSpec,
  type SortKey,
} from './connection';

/**
 * Connections of lists read from the database (kernel/connection.ts has the types, arguments
 * and cursors): the keyset predicate of a cursor in SQL or as a MikroORM filter, and the
 * sources that read a page with it.
 */

const once = <V>(f: () => Promise<V>): (() => Promise<V>) => {
  let p: Promise<V> | undefined;
  return () => (p ??= f());
};

/** A bound of the rows read: those after (`gt`), at or after (`ge`), before (`lt`), at or before (`le`) a key, in list order. */
export interface Bound {
  op: 'gt' | 'ge' | 'lt' | 'le';
  key: KeyValue[];
}

/**
 * A list in the database, read by keyset. `rows` answers the rows of the filter within the
 * bounds, in list order (or reversed), at most `limit` after skipping `offset`; `count` the
 * number of rows of the filter; `exists` whether a row of the filter lies within a bound.
 */
export interface KeysetSource<T> {
  rows(bounds: Bound[], reverse: boolean, limit: number, offset: number): Promise<T[]>;
  count(): Promise<number>;
  exists(bound: Bound): Promise<boolean>;
}

/**
 * A page of a list read from the database: the bounds of the cursors added to its filter, one
 * row more than the page to know whether the list goes on, reversed for last/before. totalCount
 * and the neighbour beyond the cursor the page starts from are each one statement more, run
 * only when selected.
 */
export async function connectionFrom<T>(
  source: KeysetSource<T>,
  args: ConnectionArgs,
  spec: ListSpec<T>,
  items: string,
  extra?: (nodes: T[]) => Record<string, unknown>,
): Promise<ConnectionJson<T>> {
  const w = windowOf(args, spec);
  const total = once(() => source.count());
  let nodes: T[];
  let more: Parameters<typeof connectionAnswer>[3];
  if (w.kind === 'offset') {
    const rows = await source.rows([], false, w.limit + 1, w.offset);
    nodes = rows.slice(0, w.limit);
    more = { next: rows.length > w.limit, previous: w.offset > 0, total, limit: w.limit, offset: w.offset };
  } else {
    const bounds: Bound[] = [];
    if (w.after) bounds.push({ op: 'gt', key: w.after });
    if (w.before) bounds.push({ op: 'lt', key: w.before });
    const rows = await source.rows(bounds, !w.forward, w.size + 1, 0);
    const full = rows.length > w.size;
    nodes = rows.slice(0, w.size);
    if (!w.forward) nodes.reverse();
    const beyond = (cursor: KeyValue[] | null, op: Bound['op']) => (cursor ? once(() => source.exists({ op, key: cursor })) : false);
    more = {
      next: w.forward ? full : beyond(w.before, 'ge'),
      previous: w.forward ? beyond(w.after, 'le') : full,
      total,
      limit: w.size,
      // known without counting only for the list's first page
      offset: w.forward && !w.after ? 0 : null,
    };
  }
  const out = connectionAnswer(spec, items, nodes, more);
  return extra ? Object.assign(out, extra(nodes)) : out;
}

/** The comparison of `op` for a key sorted ascending (`asc`) or descending. */
function sqlOp(op: Bound['op'], desc: boolean | undefined, last: boolean): string {
  const after = op === 'gt' || op === 'ge';
  const inclusive = last && (op === 'ge' || op === 'le');
  return (after !== !!desc ? '>' : '<') + (inclusive ? '=' : '');
}

function sqlParam(k: SortKey<never>, v: KeyValue): unknown {
  return k.time && typeof v === 'number' ? new Date(v) : v;
}

/**
 * The keyset predicate of a bound in SQL: `(k1, k2, id) > (?, ?, ?)` when every key runs one
 * way, otherwise `k1 > ? or (k1 = ? and (k2 < ? or (k2 = ? and id > ?)))`. `alias` prefixes
 * the columns.
 */
export function keysetSql<T>(keys: SortKey<T>[], bound: Bound, alias = ''): { sql: string; params: unknown[] } {
  const col = (k: SortKey<T>) => columnSql(k, alias);
  const values = keys.map((k, i) => sqlParam(k as SortKey<never>, bound.key[i]));
  if (keys.every((k) => !!k.desc === !!keys[0].desc)) {
    const marks = keys.map((k) => (k.time ? '?::timestamptz' : '?'));
    return { sql: `(${keys.map(col).join(', ')}) ${sqlOp(bound.op, keys[0].desc, true)} (${marks.join(', ')})`, params: values };
  }
  let sql = '';
  const params: unknown[] = [];
  keys.forEach((k, i) => {
    const last = i === keys.length - 1;
    const mark = k.time ? '?::timestamptz' : '?';
    sql += last
      ? `${col(k)} ${sqlOp(bound.op, k.desc, true)} ${mark}`
      : `(${col(k)} ${sqlOp(bound.op, k.desc, false)} ${mark} or (${col(k)} = ${mark} and `;
    params.push(...(last ? [values[i]] : [values[i], values[i]]));
  });
  return { sql: sql + ')'.repeat((keys.length - 1) * 2), params };
}

const columnSql = <T>(k: SortKey<T>, alias: string): string =>
  k.micro ? `date_trunc('milliseconds', ${alias}${k.column})` : `${alias}${k.column}`;

/** `order by` of a list in SQL, or its reverse. */
export function orderSql<T>(keys: SortKey<T>[], reverse: boolean, alias = ''): string {
  return keys.map((k) => `${columnSql(k, alias)} ${!!k.desc !== reverse ? 'desc' : 'asc'}`).join(', ');
}

/** The keyset predicate of a bound as a MikroORM filter (keys name entity properties). */
export function keysetFilter<T>(keys: SortKey<T>[], bound: Bound): Record<string, unknown> {
  const or: Record<string, unknown>[] = [];
  keys.forEach((k, i) => {
    const last = i === keys.length - 1;
    const eq = Object.fromEntries(keys.slice(0, i).map((p, j) => [p.column, sqlParam(p as SortKey<never>, bound.key[j])]));
    const op = sqlOp(bound.op, k.desc, last);
    const mo = { '>': '$gt', '>=': '$gte', '<': '$lt', '<=': '$lte' }[op]!;
    or.push({ ...eq, [k.column]: { [mo]: sqlParam(k as SortKey<never>, bound.key[i]) } });
  });
  return { $or: or };
}

/** MikroORM `orderBy` of a list, or its reverse. */
export function keysetOrder<T>(keys: SortKey<T>[], reverse: boolean): Record<string, 'asc' | 'desc'> {
  return Object.fromEntries(keys.map((k) => [k.column, !!k.desc !== reverse ? 'desc' : 'asc']));
}

/** What runs SQL: MikroORM's connection (`em.getConnection()`). */
export interface SqlRunner {
  execute(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * A list read with SQL: `select <select> from <from> where <where> [and bounds] order by <keys>`.
 * `keys` name columns (with `alias` in front when given); `map` turns the rows into nodes.
 */
export function sqlSource<T>(
  db: SqlRunner,
  list: {
    select?: string;
    from: string;
    where: string;
    params: unknown[];
    keys: SortKey<T>[];
    alias?: string;
    /** the nodes of the rows read (one statement more for what a page needs, at most) */
    map: (rows: Record<string, unknown>[]) => T[] | Promise<T[]>;
  },
): KeysetSource<T> {
  const filter = (bounds: Bound[]) => {
    const parts = bounds.map((b) => keysetSql(list.keys, b, list.alias));
    return { sql: [list.where, ...parts.map((p) => p.sql)].join(' and '), params: [...list.params, ...parts.flatMap((p) => p.params)] };
  };
  return {
    async rows(bounds, reverse, limit, offset) {
      const f = filter(bounds);
      const rows = (await db.execute(
        `select ${list.select ?? '*'} from ${list.from} where ${f.sql} order by ${orderSql(list.keys, reverse, list.alias)} limit ? offset ?`,
        [...f.params, limit, offset],
      )) as Record<string, unknown>[];
      return list.map(rows);
    },
    async count() {
      const rows = (await db.execute(`select count(*) as n from ${list.from} where ${list.where}`, list.params)) as { n: string }[];
      return Number(rows[0]?.n ?? 0);
    },
    async exists(bound) {
      const f = filter([bound]);
      const rows = (await db.execute(`select exists (select 1 from ${list.from} where ${f.sql}) as e`, f.params)) as { e: boolean }[];
      return !!rows[0]?.e;
    },
  };
}

/** What MikroORM's EntityManager offers a list (`ctx.em`). */
export interface OrmFinder {
  find(entity: never, where: never, options: never): Promise<unknown[]>;
  count(entity: never, where: never): Promise<number>;
}

/**
 * A list read with MikroORM's `find`: `keys` name entity properties (their `of` reads the
 * nodes, which `map` makes of the entities read); `options` are added to each find.
 */
export function ormSource<E, T>(
  em: OrmFinder,
  entity: unknown,
  where: Record<string, unknown>,
  keys: SortKey<T>[],
  map: (rows: E[]) => T[] | Promise<T[]>,
  options: Record<string, unknown> = {},
): KeysetSource<T> {
  const filter = (bounds: Bound[]) => (bounds.length ? { $and: [where, ...bounds.map((b) => keysetFilter(keys, b))] } : where);
  return {
    async rows(bounds, reverse, limit, offset) {
      const opts = { ...options, orderBy: keysetOrder(keys, reverse), limit, offset };
      return map((await em.find(entity as never, filter(bounds) as never, opts as never)) as E[]);
    },
    count: () => em.count(entity as never, where as never),
    async exists(bound) {
      return (await em.find(entity as never, filter([bound]) as never, { ...options, limit: 1 } as never)).length > 0;
    },
  };
}
