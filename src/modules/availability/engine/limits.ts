/** Guards against pathological settings; generous for any real schedule. */

/** A grid step shorter than this is raised to it. */
export const MIN_STEP_MS = 5 * 60_000;

/** Candidates considered per resource and request (93 days of 5-minute steps is 26 784). */
export const MAX_CANDIDATES_PER_RESOURCE = 50_000;

/** Local dates one request may span, lengths of stays included. */
export const MAX_CALENDAR_DAYS = 800;

export const DEFAULT_CHECK_IN_MINUTE = 14 * 60;
export const DEFAULT_CHECK_OUT_MINUTE = 12 * 60;

/** Start times one available-times answer holds at most (contract: "Size of an answer"). */
export const MAX_ANSWER_TIMES = 50_000;

/** Thrown when an answer would hold more entries than its allowance. */
export class TooManyTimes extends Error {
  constructor() {
    super('the answer would hold more start times than allowed');
  }
}
