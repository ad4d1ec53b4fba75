import { epochToLocal } from '../../../shared/zone';
import type { MatchContext } from './types';

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * The match context of a start instant on a resource, in the company's zone. This converts
 * zones, so it belongs at the edges (a booking request, a quote); hot loops derive contexts
 * from their own precomputed day tables instead.
 */
export function matchContextAt(zone: string, instant: number, resourceID: string): MatchContext {
  const p = epochToLocal(zone, instant);
  const date = `${String(p.year).padStart(4, '0')}-${pad2(p.month)}-${pad2(p.day)}`;
  return { resourceID, instant, date, weekday: p.weekday, minuteOfDay: p.minuteOfDay };
}
