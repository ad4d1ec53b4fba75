import { invalid } from './errors';

export interface Page {
  limit: number;
  offset: number;
}

/** Reads `limit`/`offset` (strings from a query or numbers from GraphQL) per contract section 1. */
export function parsePage(raw: { limit?: unknown; offset?: unknown }, max = 100, fallback = 100): Page {
  const num = (v: unknown, name: string, min: number, upper: number | null, dflt: number): number => {
    if (v === undefined || v === null || v === '') return dflt;
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isSafeInteger(n))
      throw invalid(`${name} must be an integer`, [{ path: name, message: 'must be an integer' }]);
    if (n < min) throw invalid(`${name} must be at least ${min}`, [{ path: name, message: `must be at least ${min}` }]);
    if (upper !== null && n > upper)
      throw invalid(`${name} must be at most ${upper}`, [{ path: name, message: `must be at most ${upper}` }]);
    return n;
  };
  return { limit: num(raw.limit, 'limit', 1, max, Math.min(fallback, max)), offset: num(raw.offset, 'offset', 0, null, 0) };
}
