/** RFC 3339 timestamps on the wire; epoch milliseconds inside. */

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Epoch ms of an RFC 3339 timestamp that carries an offset, or null. */
export function parseTimestamp(v: unknown): number | null {
  if (typeof v !== 'string' || v.length > 40) return null;
  const m = RFC3339.exec(v);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +s > 59) return null;
  const ms = Date.parse(v.replace(' ', 'T'));
  if (!Number.isFinite(ms)) return null;
  // Date.parse rolls 2026-02-31 over to March; reject dates that do not exist.
  const dayCheck = new Date(Date.UTC(+y, +mo - 1, +d));
  if (dayCheck.getUTCDate() !== +d) return null;
  return ms;
}

/** `2026-03-29T07:00:00Z` (milliseconds only when present). */
export function formatTimestamp(v: Date | number | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const ms = typeof v === 'number' ? v : v.getTime();
  if (!Number.isFinite(ms)) return null;
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
