/**
 * Sorted sets of half-open instant intervals and forward-only cursors over them. Candidates are
 * visited in increasing start order, so each check resumes where the previous one stopped and a
 * whole resource costs one pass over its intervals.
 */
import type { TimeInterval } from './types';

/** Disjoint, sorted, non-touching intervals: `starts[i] < ends[i] < starts[i + 1]`. */
export interface IntervalSet {
  readonly starts: number[];
  readonly ends: number[];
}

export const EMPTY_SET: IntervalSet = { starts: [], ends: [] };

/** Appends `[s, e)` to a set being built in start order, merging overlapping or touching ones. */
export function appendInterval(set: IntervalSet, s: number, e: number): void {
  if (!(e > s)) return; // empty and NaN intervals hold no time
  const n = set.ends.length;
  if (n > 0 && s <= set.ends[n - 1]) {
    if (e > set.ends[n - 1]) set.ends[n - 1] = e;
    return;
  }
  set.starts.push(s);
  set.ends.push(e);
}

/** Normalises intervals in any order into a set; a list already in start order (as the snapshot loads occupancy) is not sorted again. */
export function toSet<T extends TimeInterval>(list: readonly T[], keep?: (i: T) => boolean): IntervalSet {
  const picked: T[] = [];
  let sorted = true;
  for (const i of list) {
    if (!(i.end > i.start) || (keep !== undefined && !keep(i))) continue;
    if (sorted && picked.length > 0 && i.start < picked[picked.length - 1].start) sorted = false;
    picked.push(i);
  }
  if (!sorted) picked.sort((x, y) => x.start - y.start);
  const set: IntervalSet = { starts: [], ends: [] };
  for (const i of picked) appendInterval(set, i.start, i.end);
  return set;
}

/** `a` minus `b`. */
export function subtract(a: IntervalSet, b: IntervalSet): IntervalSet {
  if (b.starts.length === 0) return a;
  const out: IntervalSet = { starts: [], ends: [] };
  let j = 0;
  for (let i = 0; i < a.starts.length; i++) {
    let s = a.starts[i];
    const e = a.ends[i];
    while (j < b.starts.length && b.ends[j] <= s) j++;
    let k = j;
    while (k < b.starts.length && b.starts[k] < e) {
      if (b.starts[k] > s) appendInterval(out, s, b.starts[k]);
      s = Math.max(s, b.ends[k]);
      if (s >= e) break;
      k++;
    }
    if (s < e) appendInterval(out, s, e);
  }
  return out;
}

/** Answers "does [lo, hi) overlap the set?" for non-decreasing `lo`. */
export class OverlapCursor {
  private i = 0;

  constructor(private readonly set: IntervalSet) {}

  overlaps(lo: number, hi: number): boolean {
    const ends = this.set.ends;
    let i = this.i;
    while (i < ends.length && ends[i] <= lo) i++;
    this.i = i;
    return i < ends.length && this.set.starts[i] < hi;
  }
}

/** Answers "is [lo, hi) inside one interval of the set?" for non-decreasing `lo`. */
export class ContainCursor {
  private i = 0;

  constructor(private readonly set: IntervalSet) {}

  contains(lo: number, hi: number): boolean {
    const ends = this.set.ends;
    let i = this.i;
    while (i < ends.length && ends[i] <= lo) i++;
    this.i = i;
    return i < ends.length && this.set.starts[i] <= lo && hi <= ends[i];
  }
}
