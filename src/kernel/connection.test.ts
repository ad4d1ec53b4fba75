import 'reflect-metadata';
import { connectionOf, cursorOf, listTag, ORDERS, windowOf, type ConnectionArgs, type ListSpec, type SortKey } from './connection';
import { keysetFilter, keysetSql, orderSql } from './keyset';

interface Row {
  id: string;
  label: string;
  createdAt: string;
  priority: number;
}

/** A row labelled `label` (its id a UUID that sorts as the label does). */
const row = (label: string, second: number, priority = 0): Row => ({
  id: `00000000-0000-4000-8000-${Buffer.from(label).toString('hex').padStart(12, '0')}`,
  label,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  priority,
});
const spec = (keys: SortKey<Row>[] = ORDERS.creation, tag = listTag('things', 'company-a')): ListSpec<Row> => ({ tag, keys });
const ids = (c: { nodes: Row[] }) => c.nodes.map((n) => n.label);
const page = (rows: Row[], args: ConnectionArgs, s = spec()) => connectionOf(rows, args, s, 'things');

describe('cursors', () => {
  it('are base64url, hold the keys and are bound to their list', () => {
    const c = cursorOf(spec(), row('b', 2));
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => windowOf({ after: c }, spec())).not.toThrow();
    for (const other of [listTag('things', 'company-b'), listTag('others', 'company-a'), listTag('things', 'company-a', { f: 1 })])
      expect(() => windowOf({ after: c }, spec(ORDERS.creation, other))).toThrow(/invalid_cursor/);
    expect(() => windowOf({ before: 'nope!' }, spec())).toThrow(/invalid_cursor/);
    // the list's tag with values of the wrong type: refused before they reach the database
    const forged = (values: unknown[]) => Buffer.from(JSON.stringify([spec().tag, ...values])).toString('base64url');
    const uuid = '7f000001-0000-4000-8000-000000000001';
    expect(() => windowOf({ after: forged([Date.UTC(2026, 0, 1), uuid]) }, spec())).not.toThrow();
    for (const values of [
      [Date.UTC(2026, 0, 1), 'not-a-uuid'],
      ['2026-01-01', uuid],
      [1e20, uuid],
      [Date.UTC(2026, 0, 1), null],
      [1, uuid, 2],
    ])
      expect(() => windowOf({ after: forged(values) }, spec())).toThrow(/invalid_cursor/);
    const rules = spec(ORDERS.rules);
    const rule = (p: unknown) => Buffer.from(JSON.stringify([rules.tag, p, 0, uuid])).toString('base64url');
    expect(() => windowOf({ after: rule(3) }, rules)).not.toThrow();
    for (const p of ['3', 2 ** 31, 1.5]) expect(() => windowOf({ after: rule(p) }, rules)).toThrow(/invalid_cursor/);
    expect(() => windowOf({ before: Buffer.from('{}').toString('base64url') }, spec())).toThrow(/invalid_cursor/);
  });

  it('tags ignore key order, absent filters and the case of the scope', () => {
    expect(listTag('f', 'ABC', { a: 1, b: null })).toBe(listTag('f', 'abc', { a: 1 }));
    expect(listTag('f', 'abc', { a: 1, b: 2 })).toBe(listTag('f', 'abc', { b: 2, a: 1 }));
    expect(listTag('f', 'abc', { a: 1 })).not.toBe(listTag('f', 'abc', { a: 2 }));
  });
});

describe('arguments', () => {
  it('first/last within 1..max, not both; offsets not with cursors', () => {
    for (const args of [{ first: 0 }, { first: 101 }, { last: -1 }, { first: 1, last: 1 }, { first: 1.5 }, { limit: 1, first: 1 }])
      expect(() => windowOf(args, spec())).toThrow();
    expect(windowOf({}, spec())).toMatchObject({ kind: 'cursor', size: 100, forward: true });
    expect(windowOf({}, { ...spec(), fallback: 50 })).toMatchObject({ size: 50 });
    expect(windowOf({ limit: 5 }, spec())).toEqual({ kind: 'offset', limit: 5, offset: 0 });
  });
});

describe('pages of a list in memory', () => {
  const rows = ['a', 'b', 'c', 'd', 'e'].map((id, i) => row(id, i));

  it('forward and backward, with the neighbours', () => {
    const p1 = page(rows, { first: 2 });
    expect(ids(p1)).toEqual(['a', 'b']);
    expect(p1.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const p2 = page(rows, { first: 2, after: p1.pageInfo.endCursor });
    expect(ids(p2)).toEqual(['c', 'd']);
    expect(p2.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const last = page(rows, { last: 2, before: p2.pageInfo.startCursor });
    expect(ids(last)).toEqual(['a', 'b']);
    expect(last.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const between = page(rows, { first: 5, after: p1.edges()[0].cursor, before: p2.edges()[1].cursor });
    expect(ids(between)).toEqual(['b', 'c']);
    expect(between.totalCount).toBe(5);
  });

  it('a cursor survives inserts before it and the deletion of its own row', () => {
    const p1 = page(rows, { first: 2 });
    const inserted = [row('0', -1), ...rows];
    expect(ids(page(inserted, { first: 2, after: p1.pageInfo.endCursor }))).toEqual(['c', 'd']);
    const deleted = rows.filter((r) => r.label !== 'b');
    expect(ids(page(deleted, { first: 2, after: p1.pageInfo.endCursor }))).toEqual(['c', 'd']);
    expect(ids(page(deleted, { last: 2, before: p1.pageInfo.endCursor }))).toEqual(['a']);
  });

  it('mixed directions: rules by priority (highest first), newest first, then id', () => {
    const rules = [row('x', 1, 5), row('y', 3, 1), row('z', 2, 1), row('w', 2, 0)];
    const s = spec(ORDERS.rules);
    const p1 = page(rules, { first: 2 }, s);
    expect(ids(p1)).toEqual(['x', 'y']);
    const gone = rules.filter((r) => r.label !== 'y');
    expect(ids(page(gone, { first: 2, after: p1.pageInfo.endCursor }, s))).toEqual(['z', 'w']);
  });

  it('keeps the deprecated offset fields', () => {
    expect(page(rows, { limit: 2, offset: 3 })).toMatchObject({ total: 5, limit: 2, offset: 3, things: [rows[3], rows[4]] });
  });
});

describe('keyset predicates', () => {
  it('a row comparison when every key runs one way, else the expanded form', () => {
    const key = [Date.UTC(2026, 0, 1), 'id-1'];
    expect(keysetSql(ORDERS.creation, { op: 'gt', key })).toEqual({
      sql: '(created_at, id) > (?::timestamptz, ?)',
      params: [new Date(key[0]), 'id-1'],
    });
    expect(
      keysetSql(
        ORDERS.newest.map((k) => ({ ...k, desc: true })),
        { op: 'le', key },
        'd.',
      ).sql,
    ).toBe('(d.created_at, d.id) >= (?::timestamptz, ?)');
    const mixed = keysetSql(ORDERS.rules, { op: 'gt', key: [3, ...key] });
    expect(mixed.sql).toBe(
      '(priority < ? or (priority = ? and (created_at < ?::timestamptz or (created_at = ?::timestamptz and id > ?))))',
    );
    expect(mixed.params).toEqual([3, 3, new Date(key[0]), new Date(key[0]), 'id-1']);
    expect(orderSql(ORDERS.rules, true)).toBe('priority asc, created_at asc, id desc');
    expect(orderSql([{ column: 'created_at', micro: true, of: () => 0 }], false, 'a.')).toBe(
      "date_trunc('milliseconds', a.created_at) asc",
    );
  });

  it('as a MikroORM filter', () => {
    const key = [Date.UTC(2026, 0, 1), 'id-1'];
    const keys: SortKey<Row>[] = [{ column: 'createdAt', time: true, desc: true, of: (r) => r.createdAt }, ORDERS.creation[1]];
    expect(keysetFilter(keys, { op: 'gt', key })).toEqual({
      $or: [{ createdAt: { $lt: new Date(key[0]) } }, { createdAt: new Date(key[0]), id: { $gt: 'id-1' } }],
    });
  });
});
