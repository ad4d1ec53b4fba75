/** Windows longer than this many days are expensive: they run under the availability bulkhead. */
export const LONG_WINDOW_DAYS = 7;

const ms = (v: unknown): number | null => {
  const n = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

/** True for a request over more than LONG_WINDOW_DAYS; malformed input is not (it is refused at once). */
export function isLongWindow(input: { from?: unknown; to?: unknown } | null | undefined): boolean {
  const from = ms(input?.from);
  const to = ms(input?.to);
  return from !== null && to !== null && to - from > LONG_WINDOW_DAYS * 86_400_000;
}
