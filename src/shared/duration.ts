/**
 * ISO 8601 durations (`PT30M`, `PT1H30M`, `P1D`, `P2W`) as whole seconds. Calendar units are
 * fixed-length here (a day is 86 400 s, a week 7 days, a month 30 days, a year 365 days):
 * durations in this API are service lengths, intervals and horizons, never calendar
 * arithmetic; days services count days explicitly.
 */

const PATTERN = /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

export const SECONDS_PER_DAY = 86_400;

/** Seconds of an ISO 8601 duration, or null when `text` is not one. */
export function parseDuration(text: unknown): number | null {
  if (typeof text !== 'string' || text.length > 40) return null;
  const m = PATTERN.exec(text);
  if (!m) return null;
  const [y, mo, w, d, h, mi, s] = m.slice(1).map((v) => (v === undefined ? 0 : Number(v)));
  const total =
    y * 365 * SECONDS_PER_DAY + mo * 30 * SECONDS_PER_DAY + w * 7 * SECONDS_PER_DAY + d * SECONDS_PER_DAY + h * 3600 + mi * 60 + s;
  return Number.isSafeInteger(total) ? total : null;
}

/**
 * Normalised ISO 8601 form of a number of seconds: whole days as `nD`, the rest as
 * `TnHnMnS` (`P1DT2H`, `PT1H30M`, `PT0S` for zero).
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('duration must be a non-negative number');
  let rest = Math.round(seconds);
  if (rest === 0) return 'PT0S';
  const days = Math.floor(rest / SECONDS_PER_DAY);
  rest -= days * SECONDS_PER_DAY;
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const secs = rest - minutes * 60;
  let out = 'P';
  if (days) out += `${days}D`;
  if (hours || minutes || secs) {
    out += 'T';
    if (hours) out += `${hours}H`;
    if (minutes) out += `${minutes}M`;
    if (secs) out += `${secs}S`;
  }
  return out;
}

/** Normalises an ISO 8601 duration string, or returns null when it is not one. */
export function normaliseDuration(text: unknown): string | null {
  const s = parseDuration(text);
  return s === null ? null : formatDuration(s);
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of `HH:MM`; `24:00` only when `allowEndOfDay`. Null when invalid. */
export function parseLocalTime(text: unknown, allowEndOfDay = false): number | null {
  if (typeof text !== 'string') return null;
  if (allowEndOfDay && text === '24:00') return 1440;
  const m = HHMM.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** `HH:MM` of minutes since midnight (1440 renders as `24:00`). */
export function formatLocalTime(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}
