/** The pure availability engine: snapshot in, available times or dates out. */
export { computeAvailability, computeAvailableDates } from './availability';
export { buildCalendar, minuteOfDay, wallToInstant, type Calendar, type Day } from './calendar';
export * from './types';
