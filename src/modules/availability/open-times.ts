import { formatTimestamp } from '../../shared/time';
import { DAY_MS, durationOf, isFastMinute, MINUTE_BYTES, storeDayPrefix, wholeMinute, type ByteWriter } from './answer-bytes';
import type { TimeColumns } from './engine/types';

/**
 * The times of an answer for services without spots (the REST answer, and GraphQL selections
 * that ask for the start time once), written as bytes. Within a day, the entries that share a
 * duration and a price differ only in the `HH:MM` of their start time: the first is written,
 * copied with doubling copies over the whole run, and each copy gets its own minute. The month
 * of 200 resources (140,000 entries) is then a few thousand copies instead of one string built
 * and encoded per entry.
 */

/** an entry's start time when it is a whole minute: `YYYY-MM-DDTHH:MM:00Z` */
const FAST_BYTES = 20;
const CLOSE = 0x5d; // ]
const NOTHING: Buffer = Buffer.alloc(0);

/**
 * The text of an entry around its start time, the same over a run of entries that share a
 * duration and a price: `head` from the entry's `{` to the start time's opening quote, `tail`
 * from its closing quote to the `,` that ends the entry (the last one's becomes `]`).
 */
export interface EntryShape {
  head(c: TimeColumns, i: number): Buffer;
  tail(c: TimeColumns, i: number): Buffer;
}

const REST_HEAD = Buffer.from('{"startTime":"', 'latin1');

/** The REST answer's entries: start time, duration and price, as `JSON.stringify` writes them. */
export const REST_ENTRY: EntryShape = {
  head: () => REST_HEAD,
  tail: (c, i) =>
    Buffer.from(`","duration":${JSON.stringify(durationOf(c.durations[i]))},"price":${JSON.stringify(c.priceTable[c.priceIndex[i]])}},`),
};

/**
 * Resources' entries as the JSON arrays `JSON.stringify` writes for entries without spot
 * counts: measured first (so the answer's buffer has its exact size and is never copied), then
 * written in the same order. A tail is encoded once per run of entries sharing it.
 */
export class OpenTimesWriter {
  private readonly heads: Buffer[] = [];
  private readonly tails: Buffer[] = [];
  private next = 0;

  constructor(private readonly shape: EntryShape = REST_ENTRY) {}

  /** The bytes of one resource's array. */
  measure(c: TimeColumns): number {
    const n = c.length;
    if (n === 0) return 2;
    const { starts, durations, priceIndex } = c;
    let size = 1;
    let price = -1;
    let sec = NaN;
    let around = 0;
    for (let i = 0; i < n; i++) {
      if (priceIndex[i] !== price || durations[i] !== sec) {
        price = priceIndex[i];
        sec = durations[i];
        const h = this.shape.head(c, i);
        const t = this.shape.tail(c, i);
        this.heads.push(h);
        this.tails.push(t);
        around = h.length + t.length;
      }
      const ms = starts[i];
      size += around + (isFastMinute(ms) ? FAST_BYTES : timestampOf(ms).length);
    }
    return size;
  }

  /** Writes the array of the resource measured next. */
  write(w: ByteWriter, c: TimeColumns): void {
    const n = c.length;
    if (n === 0) return w.text('[]', true);
    const { starts, durations, priceIndex } = c;
    // `YYYY-MM-DDT` of the current day
    const date = Buffer.alloc(11);
    let day = NaN;
    let dayMs = 0;
    let price = -1;
    let sec = NaN;
    let head: Buffer = NOTHING;
    let tail: Buffer = NOTHING;
    w.text('[', true);
    let i = 0;
    while (i < n) {
      if (priceIndex[i] !== price || durations[i] !== sec) {
        price = priceIndex[i];
        sec = durations[i];
        head = this.heads[this.next];
        tail = this.tails[this.next++];
      }
      const ms = starts[i];
      if (!isFastMinute(ms)) {
        w.bytes(head);
        w.text(timestampOf(ms), true);
        w.bytes(tail);
        i++;
        continue;
      }
      const d = Math.floor(ms / DAY_MS);
      if (d !== day) {
        day = d;
        dayMs = d * DAY_MS;
        storeDayPrefix(date, 0, d);
      }
      const dayEnd = dayMs + DAY_MS;
      let k = i + 1;
      while (k < n && priceIndex[k] === price && durations[k] === sec && starts[k] >= dayMs && starts[k] < dayEnd && wholeMinute(starts[k]))
        k++;
      const size = head.length + FAST_BYTES + tail.length;
      const minuteAt = head.length + 11;
      const buf = w.room(size * (k - i));
      const at = w.pos;
      let p = at;
      for (let b = 0; b < head.length; b++) buf[p++] = head[b];
      for (let b = 0; b < 11; b++) buf[p++] = date[b];
      p += 5; // the minute, below
      buf[p++] = 0x3a; // :
      buf[p++] = 0x30; // 0
      buf[p++] = 0x30; // 0
      buf[p++] = 0x5a; // Z
      buf.set(tail, p);
      for (let copied = 1; copied < k - i; copied *= 2) {
        const more = Math.min(copied, k - i - copied);
        buf.copyWithin(at + copied * size, at, at + more * size);
      }
      for (let j = i, q = at + minuteAt; j < k; j++, q += size) {
        // `HH:MM` of the minute's `HH:MM:00Z`
        const m = ((starts[j] - dayMs) / 60_000) * 9;
        buf[q] = MINUTE_BYTES[m];
        buf[q + 1] = MINUTE_BYTES[m + 1];
        buf[q + 2] = MINUTE_BYTES[m + 2];
        buf[q + 3] = MINUTE_BYTES[m + 3];
        buf[q + 4] = MINUTE_BYTES[m + 4];
      }
      w.pos = at + size * (k - i);
      i = k;
    }
    w.room(0)[w.pos - 1] = CLOSE;
  }
}

/** A start time off the fast path (not a whole minute, or outside years 0000-9999) as the API writes it. */
function timestampOf(ms: number): string {
  const text = formatTimestamp(ms);
  // the engine's starts are finite; anything else has no text to write
  if (text === null) throw new RangeError(`not a time: ${ms}`);
  return text;
}
