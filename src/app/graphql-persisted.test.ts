import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPersistedManifest } from './graphql-persisted';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'manifest-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('loadPersistedManifest', () => {
  it("reads Apollo's manifest: operations by id and by the hash of their text", () => {
    const body = 'query A { companies { total } }';
    const m = loadPersistedManifest(
      file(
        'ok.json',
        JSON.stringify({
          format: 'apollo-persisted-query-manifest',
          version: 1,
          operations: [
            { id: sha256(body), name: 'A', type: 'query', body },
            { id: 'custom-id', name: 'B', type: 'subscription', body: 'subscription B { x }' },
          ],
        }),
      ),
    );
    expect(m.size).toBe(2);
    expect(m.byId(sha256(body))).toBe(body);
    expect(m.byId('custom-id')).toBe('subscription B { x }');
    expect(m.byId('unknown')).toBeUndefined();
    expect(m.listed(body)).toBe(true);
    expect(m.listed('subscription B { x }')).toBe(true);
    expect(m.listed(`${body} `)).toBe(false);
  });

  it.each([
    ['a missing file', null],
    ['text that is not JSON', 'not json'],
    ['another format', JSON.stringify({ format: 'something-else', version: 1, operations: [] })],
    ['another version', JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 2, operations: [] })],
    [
      'an operation without a body',
      JSON.stringify({ format: 'apollo-persisted-query-manifest', version: 1, operations: [{ id: 'x', name: 'X', type: 'query' }] }),
    ],
    [
      'an operation of an unknown type',
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: 'x', name: 'X', type: 'fetch', body: '{ a }' }],
      }),
    ],
    [
      'one id for two texts',
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [
          { id: 'x', name: 'X', type: 'query', body: '{ a }' },
          { id: 'x', name: 'Y', type: 'query', body: '{ b }' },
        ],
      }),
    ],
  ])('refuses %s, naming the file', (_what, text) => {
    const path = text === null ? join(dir, 'missing.json') : file(`bad-${Math.random()}.json`, text);
    expect(() => loadPersistedManifest(path)).toThrow(
      new RegExp(`persisted-operation manifest ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
  });
});
