/**
 * Calendar dates written YYYY-MM-DD (ISO 8601's full-date, the OpenAPI `date`): the one reading
 * behind every query parameter, sheet field, command-line flag and sandbox check that takes one.
 * A date is real or refused: Date.UTC and Date.parse roll 2026-02-30 over into March, and Date.UTC
 * reads years below 100 as 19xx, so neither is asked alone.
 */

const FULL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Epoch ms of the UTC midnight that starts the date, or null unless `text` is a real YYYY-MM-DD date. */
export function calendarDayMs(text: string): number | null {
  const m = FULL_DATE.exec(text);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day
    ? d.getTime()
    : null;
}

/** Whether `text` is a real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  return calendarDayMs(text) !== null;
}
