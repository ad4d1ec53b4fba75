import { normaliseDuration, parseDuration, parseLocalTime } from './duration';
import { invalid, type ErrorDetail } from './errors';
import { isUuid } from './ids';
import { checkMetaData, type MetaData } from './metadata';
import { isOutOfRangeTimestamp, isTimestampInRange, parseTimestamp, TIMESTAMP_RANGE_MESSAGE } from './time';
import { isValidZone } from './zone';

const COLOR = /^#[0-9A-Fa-f]{6}$/;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * Collects field problems of one input object and throws a single 400 with every detail.
 * Used by the services, so REST and GraphQL apply exactly the same rules.
 */
export class Check {
  readonly details: ErrorDetail[] = [];

  fail(path: string, message: string): void {
    this.details.push({ path, message });
  }

  private present(path: string, v: unknown, required: boolean): boolean {
    if (v === undefined || v === null) {
      if (required) this.fail(path, 'is required');
      return false;
    }
    return true;
  }

  string(path: string, v: unknown, opts: { required?: boolean; max?: number; min?: number } = {}): string | undefined {
    if (!this.present(path, v, !!opts.required)) return undefined;
    if (typeof v !== 'string') return (this.fail(path, 'must be a string'), undefined);
    const s = v.trim();
    if ((opts.min ?? (opts.required ? 1 : 0)) > s.length)
      return (this.fail(path, opts.required ? 'must not be empty' : `must be at least ${opts.min} characters`), undefined);
    if (s.length > (opts.max ?? 255)) return (this.fail(path, `must be at most ${opts.max ?? 255} characters`), undefined);
    return s;
  }

  uuid(path: string, v: unknown, required = false): string | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (!isUuid(v)) return (this.fail(path, 'must be a UUID'), undefined);
    return (v as string).toLowerCase();
  }

  uuids(path: string, v: unknown, required = false): string[] | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (!Array.isArray(v)) return (this.fail(path, 'must be an array of UUIDs'), undefined);
    const out: string[] = [];
    v.forEach((x, i) => {
      const id = this.uuid(`${path}[${i}]`, x, true);
      if (id && !out.includes(id)) out.push(id);
    });
    return out;
  }

  int(path: string, v: unknown, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (!this.present(path, v, !!opts.required)) return undefined;
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return (this.fail(path, 'must be an integer'), undefined);
    if (opts.min !== undefined && v < opts.min) return (this.fail(path, `must be at least ${opts.min}`), undefined);
    if (opts.max !== undefined && v > opts.max) return (this.fail(path, `must be at most ${opts.max}`), undefined);
    return v;
  }

  number(path: string, v: unknown, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    if (!this.present(path, v, !!opts.required)) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v)) return (this.fail(path, 'must be a number'), undefined);
    if (opts.min !== undefined && v < opts.min) return (this.fail(path, `must be at least ${opts.min}`), undefined);
    if (opts.max !== undefined && v > opts.max) return (this.fail(path, `must be at most ${opts.max}`), undefined);
    return v;
  }

  bool(path: string, v: unknown, required = false): boolean | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (typeof v !== 'boolean') return (this.fail(path, 'must be a boolean'), undefined);
    return v;
  }

  /** ISO 8601 duration -> normalised text and seconds. */
  duration(path: string, v: unknown, opts: { required?: boolean; positive?: boolean } = {}): { text: string; seconds: number } | undefined {
    if (!this.present(path, v, !!opts.required)) return undefined;
    const seconds = parseDuration(v);
    if (seconds === null) return (this.fail(path, 'must be an ISO 8601 duration such as PT30M or P1D'), undefined);
    if (opts.positive && seconds <= 0) return (this.fail(path, 'must be longer than zero'), undefined);
    return { text: normaliseDuration(v)!, seconds };
  }

  localTime(path: string, v: unknown, opts: { required?: boolean; allowEndOfDay?: boolean } = {}): string | undefined {
    if (!this.present(path, v, !!opts.required)) return undefined;
    if (parseLocalTime(v, opts.allowEndOfDay) === null) return (this.fail(path, 'must be a time of day HH:MM'), undefined);
    return v as string;
  }

  timestamp(path: string, v: unknown, required = false): number | undefined {
    if (!this.present(path, v, required)) return undefined;
    // GraphQL's DateTime scalar hands over Date objects; REST hands over strings.
    const ms = v instanceof Date ? (Number.isFinite(v.getTime()) ? v.getTime() : null) : parseTimestamp(v);
    if ((ms !== null && !isTimestampInRange(ms)) || (ms === null && isOutOfRangeTimestamp(v)))
      return (this.fail(path, TIMESTAMP_RANGE_MESSAGE), undefined);
    if (ms === null) return (this.fail(path, 'must be an RFC 3339 timestamp with an offset'), undefined);
    return ms;
  }

  color(path: string, v: unknown, required = false): string | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (typeof v !== 'string' || !COLOR.test(v)) return (this.fail(path, 'must be a color #RRGGBB'), undefined);
    return v.toUpperCase();
  }

  currency(path: string, v: unknown, required = false): string | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (typeof v !== 'string' || !CURRENCY.test(v) || !isKnownCurrency(v))
      return (this.fail(path, 'must be an ISO 4217 currency code'), undefined);
    return v;
  }

  zone(path: string, v: unknown, required = false): string | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (!isValidZone(v)) return (this.fail(path, 'must be an IANA time zone such as Europe/Riga'), undefined);
    return v;
  }

  oneOf<T extends string>(path: string, v: unknown, values: readonly T[], required = false): T | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (typeof v !== 'string' || !values.includes(v as T)) return (this.fail(path, `must be one of ${values.join(', ')}`), undefined);
    return v as T;
  }

  metaData(path: string, v: unknown): MetaData | undefined {
    const problems = checkMetaData(v, path);
    problems.forEach((p) => this.details.push(p));
    return problems.length || v === undefined || v === null ? undefined : (v as MetaData);
  }

  /** `{ticketID: count}` with UUID keys and whole counts; zero counts are dropped. */
  ticketCounts(path: string, v: unknown, max = 10_000): Record<string, number> | undefined {
    const obj = this.object(path, v);
    if (!obj) return undefined;
    const out: Record<string, number> = {};
    for (const [id, n] of Object.entries(obj)) {
      if (!isUuid(id)) {
        this.fail(`${path}.${String(id).slice(0, 64)}`, 'ticket id must be a UUID');
        continue;
      }
      const count = this.int(`${path}.${id}`, n, { required: true, min: 0, max });
      if (count) out[id.toLowerCase()] = (out[id.toLowerCase()] ?? 0) + count;
    }
    return out;
  }

  object(path: string, v: unknown, required = false): Record<string, unknown> | undefined {
    if (!this.present(path, v, required)) return undefined;
    if (typeof v !== 'object' || Array.isArray(v)) return (this.fail(path, 'must be an object'), undefined);
    return v as Record<string, unknown>;
  }

  /** Throws one 400 carrying every collected detail. */
  done(message = 'invalid request'): void {
    if (this.details.length) throw invalid(`${message}: ${this.details.map((d) => `${d.path} ${d.message}`).join('; ')}`, this.details);
  }
}

let currencies: Set<string> | null = null;
function isKnownCurrency(code: string): boolean {
  if (!currencies) {
    try {
      currencies = new Set((Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('currency'));
    } catch {
      currencies = new Set();
    }
  }
  return currencies.size === 0 || currencies.has(code);
}
