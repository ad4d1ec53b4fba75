import type { Money } from '../../shared/money';
import { ByteWriter, durationOf, timestampWriter } from './answer-bytes';
import type { AvailabilityColumns, TimeColumns } from './engine/types';
import type { LoadedSnapshot } from './snapshot';
import { OpenTimesWriter, type EntryShape } from './open-times';

/**
 * The JSON of an `AvailableTimes` GraphQL value for one selection, written from the engine's
 * columns: the text graphql-js would produce for the same data (keys in the selection's order,
 * scalars as the schema serialises them), without an object per entry. The selection is plain
 * data, so it travels to a worker thread with the rest of a times job.
 */

/** One response key of an object: what `collectFields` gives for it, reduced to what the writer needs. */
export interface SelectedField {
  /** the alias, or the field name */
  key: string;
  /** the schema field (`__typename` included) */
  field: string;
  /** `__typename`: the name of the object's type */
  typename?: string;
  /** an object field (or list of objects): the selection of its objects */
  sub?: SelectedField[];
  /** `times`: the selection of each concrete type of `AvailableTime` */
  open?: SelectedField[];
  slot?: SelectedField[];
}

/** The selection of an `AvailableTimes` value. */
export type TimesSelection = SelectedField[];

/**
 * A value graphql-js would not serialise as the writer does (an Int out of range, a missing
 * value): the answer is left to graphql-js, which reports it as it always has.
 */
export class NotWritable extends Error {}

const MIN_INT = -2147483648;
const MAX_INT = 2147483647;

/** `Int` as GraphQLInt serialises a number. */
function int(v: unknown): string {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_INT || v > MAX_INT) throw new NotWritable(`not an Int: ${String(v)}`);
  return String(v);
}

/** `String` and `ID` of a string. */
function str(v: unknown): string {
  if (typeof v !== 'string') throw new NotWritable(`not a string: ${typeof v}`);
  return JSON.stringify(v);
}

/** `"key":` of each field, with the comma before every field but the first. */
const prefixes = (sel: SelectedField[]): string[] => sel.map((f, j) => `${j ? ',' : ''}${JSON.stringify(f.key)}:`);

/** A price object (`Price`, or `TicketPrice` with its ticket) as JSON. */
function moneyText(p: Money, sel: SelectedField[], keys: string[], ticketID?: string): string {
  let out = '{';
  for (let j = 0; j < sel.length; j++) {
    const f = sel[j];
    out += keys[j];
    if (f.field === 'amount') out += int(p.amount);
    else if (f.field === 'comparedAmount') out += int(p.comparedAmount);
    else if (f.field === 'currency') out += str(p.currency);
    else if (f.field === 'ticketID') out += str(ticketID);
    else if (f.field === '__typename') out += JSON.stringify(f.typename);
    else throw new NotWritable(`unknown field ${f.field}`);
  }
  return `${out}}`;
}

/** A REST map `{ticketID: count}` as the list of `TicketCount` the schema answers. */
function countsText(map: Record<string, number> | null | undefined, sel: SelectedField[], keys: string[]): string {
  let out = '[';
  let n = 0;
  for (const [ticketID, count] of Object.entries(map ?? {})) {
    out += n++ ? ',{' : '{';
    for (let j = 0; j < sel.length; j++) {
      const f = sel[j];
      out += keys[j];
      if (f.field === 'ticketID') out += str(ticketID);
      else if (f.field === 'count') out += int(count);
      else if (f.field === '__typename') out += JSON.stringify(f.typename);
      else throw new NotWritable(`unknown field ${f.field}`);
    }
    out += '}';
  }
  return `${out}]`;
}

/** The REST map `{ticketID: price}` as the list of `TicketPrice` (`{ticketID, ...price}`). */
function ticketPricesText(map: Record<string, Money> | null | undefined, sel: SelectedField[], keys: string[]): string {
  let out = '[';
  let n = 0;
  for (const [ticketID, p] of Object.entries(map ?? {})) {
    if (n++) out += ',';
    out += moneyText(p, sel, keys, 'ticketID' in p ? (p as { ticketID?: string }).ticketID : ticketID);
  }
  return `${out}]`;
}

const OPEN = Buffer.from('[');
const CLOSE = Buffer.from(']');
const ENTRY_OPEN = Buffer.from('{');
const ENTRY_NEXT = Buffer.from(',{');
const ENTRY_CLOSE = Buffer.from('}');
const QUOTE = Buffer.from('"');

type EntryOp = (c: TimeColumns, i: number) => void;

/**
 * Writes a resource's entries for one selection. Start times are written in place; the text
 * of a duration and of a price is encoded once per run of entries that share it (consecutive
 * entries share one price object in the columns).
 */
function entriesWriter(w: ByteWriter, sel: SelectedField[], timestamp: (ms: number) => void): (c: TimeColumns) => void {
  const keys = prefixes(sel);
  const ops: EntryOp[] = sel.map((f, j): EntryOp => {
    const key = keys[j];
    switch (f.field) {
      case 'startTime': {
        const head = Buffer.from(`${key}"`);
        return (c, i) => {
          const ms = c.starts[i];
          if (!Number.isFinite(ms)) throw new NotWritable('not a DateTime');
          w.bytes(head);
          timestamp(ms);
          w.bytes(QUOTE);
        };
      }
      case 'duration': {
        let last = NaN;
        let text = QUOTE;
        return (c, i) => {
          const sec = c.durations[i];
          if (sec !== last) {
            last = sec;
            text = Buffer.from(key + str(durationOf(sec)));
          }
          w.bytes(text);
        };
      }
      case 'price': {
        const sub = f.sub ?? [];
        const subKeys = prefixes(sub);
        let last: Money | null = null;
        let text = QUOTE;
        return (c, i) => {
          const p = c.priceTable[c.priceIndex[i]];
          if (p !== last) {
            text = Buffer.from(key + moneyText(p, sub, subKeys));
            last = p;
          }
          w.bytes(text);
        };
      }
      case '__typename': {
        const text = Buffer.from(key + JSON.stringify(f.typename));
        return () => w.bytes(text);
      }
      case 'spotsAvailable':
        return (c, i) => w.text(key + int(c.slots ? c.slots.totalSpots[i] - c.slots.bookedSpots[i] : 0));
      case 'totalSpots':
        return (c, i) => w.text(key + int(c.slots ? c.slots.totalSpots[i] : 0));
      case 'bookedSpots':
        return (c, i) => w.text(key + int(c.slots ? c.slots.bookedSpots[i] : 0));
      case 'bookedSpotsPerTicket':
      case 'totalSpotsPerTicket': {
        const sub = f.sub ?? [];
        const subKeys = prefixes(sub);
        const field = f.field;
        return (c, i) => w.text(key + countsText(c.slots?.[field][i], sub, subKeys));
      }
      case 'ticketPrices': {
        const sub = f.sub ?? [];
        const subKeys = prefixes(sub);
        return (c, i) => w.text(key + ticketPricesText(c.slots?.ticketPrices[i], sub, subKeys));
      }
      default:
        throw new NotWritable(`unknown field ${f.field}`);
    }
  });
  return (c) => {
    w.bytes(OPEN);
    for (let i = 0; i < c.length; i++) {
      w.bytes(i ? ENTRY_NEXT : ENTRY_OPEN);
      for (let j = 0; j < ops.length; j++) ops[j](c, i);
      w.bytes(ENTRY_CLOSE);
    }
    w.bytes(CLOSE);
  };
}

const NO_TIMES: TimeColumns = {
  length: 0,
  starts: new Float64Array(0),
  ends: new Float64Array(0),
  durations: new Float64Array(0),
  priceIndex: new Int32Array(0),
  priceTable: [],
  slots: null,
};

/**
 * Unwritten bytes before and after the JSON of a selection, so that the response around it (a
 * GraphQL response's `{"data":{"availableTimes":` and `}}`) can be written there instead of
 * copying the answer into a new buffer.
 */
export const SPARE_BEFORE = 192;
export const SPARE_AFTER = 64;

/** The JSON in a buffer written by `timesSelectionJson` (a view: the spare bytes around it are the caller's). */
export const selectionJsonOf = (written: Buffer): Buffer => written.subarray(SPARE_BEFORE, written.length - SPARE_AFTER);

/** Bytes per entry of a month answer (start, duration, price), a first guess of the buffer's size. */
const ENTRY_BYTES = 112;

/**
 * The `AvailableTimes` value of an answer as JSON bytes for `selection`: the resources in the
 * order of the REST map (a repeated id once, where it first appears, with its last list), each
 * entry an `OpenAvailableTime`, or a `SlotAvailableTime` for group and ticket services.
 * Throws `NotWritable` where graphql-js would not serialise a value as written here. The JSON
 * lies between SPARE_BEFORE and SPARE_AFTER unwritten bytes (`selectionJsonOf`).
 */
export function timesSelectionJson(
  loaded: LoadedSnapshot,
  columns: AvailabilityColumns,
  timeZone: string,
  selection: TimesSelection,
): Buffer {
  const withSpots = loaded.snapshot.service.type === 'group' || loaded.snapshot.service.type === 'ticket';
  const ids: string[] = [];
  const seen = new Set<string>();
  let entries = 0;
  for (const r of loaded.snapshot.resources) {
    if (seen.has(r.id)) continue;
    seen.add(r.id);
    ids.push(r.id);
    entries += columns[r.id]?.length ?? 0;
  }
  const w = new ByteWriter(SPARE_BEFORE + 256 + ids.length * 64 + entries * (withSpots ? 2 * ENTRY_BYTES : ENTRY_BYTES));
  w.skip(SPARE_BEFORE);
  const timestamp = timestampWriter(w);
  const keys = prefixes(selection);
  w.text('{');
  selection.forEach((f, j) => {
    w.text(keys[j]);
    if (f.field === '__typename') w.text(JSON.stringify(f.typename));
    else if (f.field === 'timeZone') w.text(str(timeZone));
    else if (f.field === 'resources') writeResources(w, ids, columns, f.sub ?? [], withSpots, timestamp);
    else throw new NotWritable(`unknown field ${f.field}`);
  });
  w.text('}');
  return w.done(SPARE_AFTER);
}

/**
 * The entry shape of a selection of an open service's times that asks for the start time once
 * (and otherwise only for the duration, the price and `__typename`), for the run-copying writer
 * of the REST answer; null for any other selection, which `entriesWriter` writes entry by entry.
 */
export function selectionShape(sel: SelectedField[]): EntryShape | null {
  const at = sel.findIndex((f) => f.field === 'startTime');
  if (at < 0 || sel.some((f, j) => j !== at && !['duration', 'price', '__typename'].includes(f.field))) return null;
  const keys = prefixes(sel);
  const subKeys = sel.map((f) => prefixes(f.sub ?? []));
  const text = (from: number, to: number, c: TimeColumns, i: number): string => {
    let out = '';
    for (let j = from; j < to; j++) {
      const f = sel[j];
      out += keys[j];
      if (f.field === 'duration') out += str(durationOf(c.durations[i]));
      else if (f.field === 'price') out += moneyText(c.priceTable[c.priceIndex[i]], f.sub ?? [], subKeys[j]);
      else out += JSON.stringify(f.typename);
    }
    return out;
  };
  return {
    head: (c, i) => Buffer.from(`{${text(0, at, c, i)}${keys[at]}"`),
    tail: (c, i) => Buffer.from(`"${text(at + 1, sel.length, c, i)}},`),
  };
}

/** A resource's entries through the run-copying writer (measured, then written at once). */
function runsWriter(w: ByteWriter, shape: EntryShape): (c: TimeColumns) => void {
  const runs = new OpenTimesWriter(shape);
  return (c) => {
    try {
      runs.measure(c);
      runs.write(w, c);
    } catch (err) {
      // a start time with no text (the engine writes none): left to graphql-js
      if (err instanceof RangeError) throw new NotWritable(err.message);
      throw err;
    }
  };
}

function writeResources(
  w: ByteWriter,
  ids: string[],
  columns: AvailabilityColumns,
  sel: SelectedField[],
  withSpots: boolean,
  timestamp: (ms: number) => void,
): void {
  const keys = prefixes(sel);
  // one writer per `times` key, shared by the resources
  const writers = sel.map((f) => {
    if (f.field !== 'times') return null;
    const entry = (withSpots ? f.slot : f.open) ?? [];
    const shape = withSpots ? null : selectionShape(entry);
    return shape ? runsWriter(w, shape) : entriesWriter(w, entry, timestamp);
  });
  w.text('[');
  ids.forEach((id, n) => {
    w.text(n ? ',{' : '{');
    sel.forEach((f, j) => {
      w.text(keys[j]);
      if (f.field === '__typename') w.text(JSON.stringify(f.typename));
      else if (f.field === 'resourceID') w.text(str(id));
      else if (f.field === 'times') writers[j]!(columns[id] ?? NO_TIMES);
      else throw new NotWritable(`unknown field ${f.field}`);
    });
    w.text('}');
  });
  w.text(']');
}
