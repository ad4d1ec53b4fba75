import { KeptDocuments } from './kept-documents';

const doc = (name: string, size: number) => ({ name, size });

describe('KeptDocuments', () => {
  it('forgets the oldest when the count would pass its bound', () => {
    const k = new KeptDocuments<{ name: string; size: number }>(2, 1000, 1000);
    k.keep('a', doc('a', 10));
    k.keep('b', doc('b', 10));
    k.keep('c', doc('c', 10));
    expect([k.get('a'), k.get('b')?.name, k.get('c')?.name]).toEqual([undefined, 'b', 'c']);
    expect(k.held).toEqual({ count: 2, chars: 20 });
    expect(k.evicted).toBe(1);
  });

  it('forgets the least recently used: a document read is kept over one written later', () => {
    const k = new KeptDocuments<{ name: string; size: number }>(2, 1000, 1000);
    k.keep('a', doc('a', 10));
    k.keep('b', doc('b', 10));
    expect(k.get('a')?.name).toBe('a');
    k.keep('c', doc('c', 10));
    expect([k.get('a')?.name, k.get('b'), k.get('c')?.name]).toEqual(['a', undefined, 'c']);
  });

  it('forgets the oldest until the characters fit, and counts a replaced document once', () => {
    const k = new KeptDocuments<{ name: string; size: number }>(10, 100, 100);
    k.keep('a', doc('a', 40));
    k.keep('b', doc('b', 40));
    k.keep('b', doc('b2', 30));
    expect(k.held).toEqual({ count: 2, chars: 70 });
    // the replaced one went to the back: only `a` must go
    k.keep('c', doc('c', 60));
    expect([k.get('a'), k.get('b')?.name, k.get('c')?.name]).toEqual([undefined, 'b2', 'c']);
    expect(k.held).toEqual({ count: 2, chars: 90 });
    // exactly at the bound is kept
    k.keep('d', doc('d', 40));
    expect([k.get('b'), k.get('c')?.name, k.get('d')?.name]).toEqual([undefined, 'c', 'd']);
    expect(k.held).toEqual({ count: 2, chars: 100 });
  });

  it('does not keep a document larger than one may be, and forgets the older copy of its key', () => {
    const k = new KeptDocuments<{ name: string; size: number }>(10, 1000, 50);
    k.keep('a', doc('a', 50));
    k.keep('a', doc('a2', 51));
    expect(k.get('a')).toBeUndefined();
    expect(k.held).toEqual({ count: 0, chars: 0 });
    k.forget('nothing');
    expect(k.held).toEqual({ count: 0, chars: 0 });
  });
});
