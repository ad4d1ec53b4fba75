import type { Check } from '../../shared/validate';
import type { ServiceType } from '../../shared/service-type';
import type { ServiceSettings } from './catalog.entity';

export const BOOKING_POLICIES = ['instant', 'manual'] as const;

/** Duration settings and whether zero is a meaningful value for them (a buffer may be empty, a horizon may not). */
const DURATIONS: { key: 'availabilityPeriod' | 'bufferBefore' | 'bufferAfter' | 'duration' | 'timeInterval'; positive: boolean }[] = [
  { key: 'availabilityPeriod', positive: true },
  { key: 'bufferBefore', positive: false },
  { key: 'bufferAfter', positive: false },
  { key: 'duration', positive: true },
  { key: 'timeInterval', positive: true },
];

const TIMES = ['checkInTime', 'checkOutTime'] as const;

/**
 * Applies a settings input onto `current` and returns the new settings (the input objects are
 * not mutated). Only keys that are present change; `null` clears a key (`bookingPolicy` falls
 * back to `instant`). Problems go into `c` under `prefix` (`settings` on create, none on the
 * settings update). Rules that depend on the service type are checked on the merged result, so
 * a settings update cannot leave a fixed service without its duration (`type` null: the type
 * itself was invalid, only the shapes are checked).
 *
 * `currency` may stay unset: a service can be set up before it is priced, so the currency is
 * required where a price is computed, not here.
 */
export function mergeSettings(c: Check, prefix: string, current: ServiceSettings, raw: unknown, type: ServiceType | null): ServiceSettings {
  const at = (k: string) => (prefix ? `${prefix}.${k}` : k);
  const next: ServiceSettings = { ...current };
  const input = raw === undefined || raw === null ? {} : (c.object(prefix || 'settings', raw) ?? {});
  const before = c.details.length;

  for (const { key, positive } of DURATIONS) {
    const v = input[key];
    if (v === undefined) continue;
    if (v === null) delete next[key];
    else {
      const d = c.duration(at(key), v, { positive });
      if (d) next[key] = d.text;
    }
  }
  for (const key of TIMES) {
    const v = input[key];
    if (v === undefined) continue;
    if (v === null) delete next[key];
    else {
      const t = c.localTime(at(key), v);
      if (t) next[key] = t;
    }
  }
  if (input.bookingPolicy !== undefined) {
    if (input.bookingPolicy === null) next.bookingPolicy = 'instant';
    else {
      const p = c.oneOf(at('bookingPolicy'), input.bookingPolicy, BOOKING_POLICIES);
      if (p) next.bookingPolicy = p;
    }
  }
  if (input.currency !== undefined) {
    if (input.currency === null) delete next.currency;
    else {
      const cur = c.currency(at('currency'), input.currency);
      if (cur) next.currency = cur;
    }
  }
  if (input.tax !== undefined) {
    if (input.tax === null) delete next.tax;
    else {
      const tax = c.object(at('tax'), input.tax);
      if (tax) {
        // A tax sent without one of its parts keeps the stored part, so `{rate: 9}` only changes the rate.
        const inclusive =
          tax.inclusive === undefined || tax.inclusive === null
            ? (current.tax?.inclusive ?? false)
            : c.bool(at('tax.inclusive'), tax.inclusive);
        const rate =
          tax.rate === undefined || tax.rate === null ? current.tax?.rate : c.number(at('tax.rate'), tax.rate, { min: 0, max: 100 });
        if (rate === undefined && (tax.rate === undefined || tax.rate === null)) c.fail(at('tax.rate'), 'is required');
        if (inclusive !== undefined && rate !== undefined) next.tax = { inclusive, rate };
      }
    }
  }

  const durationReported = c.details.slice(before).some((d) => d.path === at('duration'));
  if (!durationReported) {
    if (type === 'fixed' && !next.duration) c.fail(at('duration'), 'is required for a fixed service');
    if (type === 'days' && next.duration && !wholeDays(next.duration))
      c.fail(at('duration'), 'must be a whole number of days (P1D, P7D) for a days service');
  }
  next.bookingPolicy ??= 'instant';
  return next;
}

function wholeDays(normalised: string): boolean {
  // Normalised durations render whole days as `P<n>D` with no time part.
  return /^P\d+D$/.test(normalised) && normalised !== 'P0D';
}
