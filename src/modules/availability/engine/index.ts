/** The pure availability engine: snapshot in, available times or dates out. */
export {
  computeAvailability,
  computeAvailabilityColumns,
  computeAvailabilityColumnsPaced,
  computeAvailabilityPaced,
  computeAvailableDates,
  computeAvailableDatesPaced,
  type Pacing,
} from './availability';
export { MAX_ANSWER_TIMES, TooManyTimes } from './limits';
export { buildCalendar, minuteOfDay, wallToInstant, type Calendar, type Day } from './calendar';
export * from './types';
