import { DomainError } from './errors';
import { applyMetaDataUpdate, checkMetaData, jsonDepth, parseMetaDataUpdate, updateRecordMetaData } from './metadata';

const upd = (raw: unknown) => parseMetaDataUpdate(raw);

describe('metaDataUpdate', () => {
  it('sets a nested path, creating objects on the way', () => {
    expect(applyMetaDataUpdate({ a: 1 }, 1, upd({ path: 'b.c.d', value: 5 }))).toEqual({ a: 1, b: { c: { d: 5 } } });
  });
  it('replaces a non-object on the way', () => {
    expect(applyMetaDataUpdate({ b: 3 }, 1, upd({ path: 'b.c', value: true }))).toEqual({ b: { c: true } });
  });
  it('removes a key with null and leaves the rest', () => {
    expect(applyMetaDataUpdate({ a: 1, b: { c: 2, d: 3 } }, 1, upd({ path: 'b.c', value: null }))).toEqual({ a: 1, b: { d: 3 } });
    expect(applyMetaDataUpdate({ a: 1 }, 1, upd({ path: 'x.y', value: null }))).toEqual({ a: 1 });
  });
  it('replaces the whole object with path ""', () => {
    expect(applyMetaDataUpdate({ a: 1 }, 1, upd({ path: '', value: { z: 1 } }))).toEqual({ z: 1 });
    expect(() => upd({ path: '', value: 3 })).toThrow(DomainError);
  });
  it('rejects a stale expectedVersion with version_conflict and does not mutate', () => {
    const current = { a: 1 };
    try {
      applyMetaDataUpdate(current, 3, upd({ expectedVersion: 2, path: 'a', value: 2 }));
      throw new Error('expected a conflict');
    } catch (e) {
      expect((e as DomainError).code).toBe('version_conflict');
    }
    expect(current).toEqual({ a: 1 });
  });
  it('accepts the current expectedVersion and bumps the record version', () => {
    const rec = { metaData: { a: 1 }, metaDataVersion: 1 };
    updateRecordMetaData(rec, { expectedVersion: 1, path: 'a', value: 2 });
    expect(rec).toEqual({ metaData: { a: 2 }, metaDataVersion: 2 });
  });
  it('rejects malformed updates', () => {
    expect(() => upd({ path: 'a..b', value: 1 })).toThrow(DomainError);
    expect(() => upd({ path: '__proto__.x', value: 1 })).toThrow(DomainError);
    expect(() => upd({ path: 'a' })).toThrow(DomainError);
    expect(() => upd({ path: 1, value: 1 })).toThrow(DomainError);
    expect(() => upd({ expectedVersion: 0, path: 'a', value: 1 })).toThrow(DomainError);
    expect(() => upd([])).toThrow(DomainError);
  });
  it('limits metaData to 64 KiB', () => {
    expect(checkMetaData({ big: 'x'.repeat(70 * 1024) })).toHaveLength(1);
    expect(checkMetaData([1])).toHaveLength(1);
    expect(checkMetaData({ ok: true })).toHaveLength(0);
    expect(() => applyMetaDataUpdate({}, 1, upd({ path: 'a', value: 'x'.repeat(70 * 1024) }))).toThrow(DomainError);
  });
  it('limits metaData to 32 levels of nesting, counting the object itself', () => {
    const deep = (levels: number): Record<string, unknown> => (levels <= 1 ? { a: 1 } : { a: deep(levels - 1) });
    expect(checkMetaData(deep(32))).toHaveLength(0);
    expect(checkMetaData(deep(33))).toEqual([{ path: 'metaData', message: 'must not be nested deeper than 32 levels' }]);
    expect(checkMetaData({ list: [[[[1]]]] })).toHaveLength(0);
    // A path adds its levels to the value's.
    expect(() => upd({ path: 'x', value: deep(31) })).not.toThrow();
    expect(() => upd({ path: 'x', value: deep(32) })).toThrow(DomainError);
    try {
      upd({ path: 'x', value: deep(32) });
    } catch (e) {
      expect((e as DomainError).details).toEqual([
        { path: 'metaDataUpdate.value', message: 'would make metaData nested deeper than 32 levels' },
      ]);
    }
    expect(() => upd({ path: 'a.b.c', value: deep(30) })).toThrow(DomainError);
    expect(() => upd({ path: '', value: deep(33) })).toThrow(DomainError);
    // Existing metadata and the update together.
    const bottom = Array(31).fill('a').join('.');
    expect(() => applyMetaDataUpdate(deep(32), 1, upd({ path: bottom, value: 2 }))).not.toThrow();
    // parseMetaDataUpdate refuses this already; apply checks the result again on its own.
    expect(() => applyMetaDataUpdate(deep(32), 1, { expectedVersion: null, path: `${bottom}.a`, value: { c: 1 } })).toThrow(
      /nested deeper than 32/,
    );
  });
  it('measures depth without recursion, whatever the depth', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(jsonDepth(v, 40)).toBe(41);
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({})).toBe(1);
    expect(jsonDepth({ a: [{}] })).toBe(3);
  });
});
