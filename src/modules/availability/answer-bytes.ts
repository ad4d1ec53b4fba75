import { formatDuration } from '../../shared/duration';
import { civilFromDays } from '../../shared/civil-date';
import { formatTimestamp } from '../../shared/time';

/**
 * Writing JSON answers as bytes: the buffer, the start times and the durations of the times
 * answers (REST and the GraphQL selections of them), shared by the main thread and the workers.
 */

const durationText = new Map<number, string>();
export function durationOf(sec: number): string {
  let text = durationText.get(sec);
  if (text === undefined) {
    text = formatDuration(sec);
    if (durationText.size < 10_000) durationText.set(sec, text);
  }
  return text;
}

export const DAY_MS = 86_400_000;
const LAST_FAST_MS = 253_402_300_800_000; // 10000-01-01

/**
 * A whole minute: exact for any double (the quotient of a multiple is exact, the product of a
 * whole number of minutes too), and without the call to `fmod` that `%` on a double costs.
 */
export const wholeMinute = (ms: number): boolean => Math.floor(ms / 60_000) * 60_000 === ms;

/** Whole minutes of years 0000-9999: written from the day's `YYYY-MM-DDT` and the minute table. */
export const isFastMinute = (ms: number): boolean => ms >= 0 && ms < LAST_FAST_MS && wholeMinute(ms);

/** `HH:MM:00Z` of each minute of a UTC day, 9 bytes each (minute `m` at `m * 9`). */
export const MINUTE_BYTES = Buffer.from(
  Array.from({ length: 1440 }, (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00Z`).join(''),
  'latin1',
);

/**
 * An answer's bytes written in place into one buffer. Pieces of text are encoded straight into
 * it; a writer that knows its bytes stores them itself (`room`). Given the exact size, the
 * buffer is never copied: fresh memory is costly to touch (a 16 MB answer faults in 4,000 pages).
 */
export class ByteWriter {
  private buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(64, size));
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  /** `src[from, to)` */
  bytes(src: Uint8Array, from = 0, to = src.length): void {
    const n = to - from;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    if (n > 48) buf.set(src.subarray(from, to), p);
    else for (let i = from; i < to; i++) buf[p++] = src[i];
    this.pos += n;
  }

  /** `ascii`: the text is known to hold only ASCII characters (one byte each, copied as they are) */
  text(s: string, ascii = false): void {
    this.ensure(ascii ? s.length : s.length * 3); // UTF-8 bytes of a UTF-16 code unit: at most 3
    this.pos += this.buf.write(s, this.pos, ascii ? 'latin1' : 'utf8');
  }

  /** The buffer, with room for `n` bytes from `pos`, for a caller that stores bytes itself and moves `pos` on. */
  room(n: number): Buffer {
    this.ensure(n);
    return this.buf;
  }

  /** Leaves `n` bytes unwritten (spare room for a caller). */
  skip(n: number): void {
    this.ensure(n);
    this.pos += n;
  }

  /**
   * The bytes written, in a buffer of exactly their length (and `spareAfter` unwritten bytes
   * after them) that owns its memory (it can move to another thread).
   */
  done(spareAfter = 0): Buffer {
    const size = this.pos + spareAfter;
    if (size === this.buf.length) return this.buf;
    const out = Buffer.allocUnsafeSlow(size);
    this.buf.copy(out, 0, 0, this.pos);
    return out;
  }
}

/**
 * Stores `YYYY-MM-DDT` of UTC day `d` (days since 1970-01-01, years 0-9999) at `at`; from the
 * civil date, which costs a small part of formatting a `Date` (about 7,000 instructions each).
 */
export function storeDayPrefix(buf: Uint8Array, at: number, d: number): void {
  const { year, month, day } = civilFromDays(d);
  buf[at] = 0x30 + Math.floor(year / 1000);
  buf[at + 1] = 0x30 + (Math.floor(year / 100) % 10);
  buf[at + 2] = 0x30 + (Math.floor(year / 10) % 10);
  buf[at + 3] = 0x30 + (year % 10);
  buf[at + 4] = 0x2d; // -
  buf[at + 5] = 0x30 + Math.floor(month / 10);
  buf[at + 6] = 0x30 + (month % 10);
  buf[at + 7] = 0x2d;
  buf[at + 8] = 0x30 + Math.floor(day / 10);
  buf[at + 9] = 0x30 + (day % 10);
  buf[at + 10] = 0x54; // T
}

/** `HH:MM:00Z` of each minute of a UTC day. */
const MINUTE_TEXT = Array.from(
  { length: 1440 },
  (_, m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:00Z`,
);

/**
 * The start times of one answer as text: whole minutes (every grid start is one) as the UTC
 * day's `YYYY-MM-DDT`, kept while it repeats, and the minute from a table; anything else as
 * `formatTimestamp` writes it.
 */
export function timestampText(): (ms: number) => string {
  let day = NaN;
  let prefix = '';
  const bytes = Buffer.alloc(11);
  return (ms) => {
    if (!isFastMinute(ms)) return formatTimestamp(ms)!;
    const d = Math.floor(ms / DAY_MS);
    if (d !== day) {
      day = d;
      storeDayPrefix(bytes, 0, d);
      prefix = bytes.toString('latin1', 0, 11);
    }
    return prefix + MINUTE_TEXT[(ms - d * DAY_MS) / 60_000];
  };
}

/** The same, written into `w` as bytes. */
export function timestampWriter(w: ByteWriter): (ms: number) => void {
  let day = NaN;
  const prefix = Buffer.alloc(11);
  return (ms) => {
    if (!isFastMinute(ms)) return w.text(formatTimestamp(ms)!);
    const d = Math.floor(ms / DAY_MS);
    if (d !== day) {
      day = d;
      storeDayPrefix(prefix, 0, d);
    }
    w.bytes(prefix);
    const at = ((ms - d * DAY_MS) / 60_000) * 9;
    w.bytes(MINUTE_BYTES, at, at + 9);
  };
}
