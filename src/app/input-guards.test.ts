import { findOddInput, MAX_BODY_DEPTH } from './input-guards';

describe('findOddInput', () => {
  it('finds a NUL character in a string or a key, however deep', () => {
    expect(findOddInput({ a: [{ b: 'x\u0000' }] }, '')).toEqual({ path: 'a[0].b', message: 'must not contain NUL characters' });
    expect(findOddInput({ ['k\u0000']: 1 }, '')).toEqual({ path: 'k\\u0000', message: 'key must not contain NUL characters' });
    expect(findOddInput({ cid: '\u0000' }, 'path')).toEqual({ path: 'path.cid', message: 'must not contain NUL characters' });
    expect(findOddInput('\u0000', 'query')).toEqual({ path: 'query', message: 'must not contain NUL characters' });
  });

  it('accepts ordinary values, other control characters included', () => {
    expect(findOddInput({ a: 'tab\tnew\nline', b: [1, null, true, { c: '\u0001' }], d: '' }, '')).toBeNull();
    expect(findOddInput(undefined, '')).toBeNull();
    expect(findOddInput(null, '')).toBeNull();
  });

  it(`allows ${MAX_BODY_DEPTH} levels of nesting and refuses one more, without recursion`, () => {
    const deep = (n: number): unknown => {
      let v: unknown = 1;
      for (let i = 0; i < n; i++) v = { a: v };
      return v;
    };
    expect(findOddInput(deep(MAX_BODY_DEPTH), '')).toBeNull();
    expect(findOddInput(deep(MAX_BODY_DEPTH + 1), '')?.message).toBe(`is nested more than ${MAX_BODY_DEPTH} levels deep`);
    expect(findOddInput(deep(500_000), '')?.message).toMatch(/nested more than/);
  });
});
