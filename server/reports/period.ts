import type { Locale } from '../../common/locales';

/**
 * Periods of reports in a company's time zone: the week (Monday 00:00 to the next Monday 00:00
 * on the company's clocks), when a week's report is due (Monday 07:00 there), and calendar days
 * typed in a form. Built on Intl, so every IANA zone and its daylight-saving changes are known
 * without a time-zone library: a week across a change lasts 167 or 169 hours, as it should.
 */

export interface Period {
  start: Date;
  /** Exclusive. */
  end: Date;
}

export interface CalendarDay {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** A week's report is made at this hour of the Monday that ends it, on the company's clocks. */
export const WEEKLY_REPORT_HOUR = 7;

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone (companies.timezone is typed by people). */
export function isTimeZone(timeZone: string): boolean {
  try {
    partsFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The company's zone, or UTC when it is not one Intl knows (so that a typo never stops its reports). */
export function reportTimeZone(timeZone: string | null | undefined): string {
  return timeZone && isTimeZone(timeZone) ? timeZone : 'UTC';
}

/** The wall clock in `timeZone` at an instant. */
function wallClock(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far `timeZone` is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const clock = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant the clocks of `timeZone` read this day at this hour. An hour a daylight-saving
 * change skips is read with the offset before the change (so it lands an hour later).
 */
export function zonedInstant(day: CalendarDay, hour: number, timeZone: string): Date {
  const wall = Date.UTC(day.year, day.month - 1, day.day, hour);
  const first = wall - offsetAt(wall, timeZone);
  const second = wall - offsetAt(first, timeZone);
  return new Date(second);
}

/** The calendar day an instant falls on in `timeZone`. */
export function calendarDayOf(instant: Date, timeZone: string): CalendarDay {
  const { year, month, day } = wallClock(instant, timeZone);
  return { year, month, day };
}

export function addDays(day: CalendarDay, days: number): CalendarDay {
  const date = new Date(Date.UTC(day.year, day.month - 1, day.day + days));
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** `2026-11-02` → its day; the text must already be checked (common/schemas/reports.ts). */
export function parseCalendarDay(text: string): CalendarDay {
  const [year, month, day] = text.split('-').map(Number);
  return { year, month, day };
}

export function calendarDayText(day: CalendarDay): string {
  return `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
}

/** The Monday of the week a day falls in. */
function mondayOf(day: CalendarDay): CalendarDay {
  const weekday = new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

export interface WeeklyPeriod extends Period {
  /** When its report is due: the Monday that ends it, at WEEKLY_REPORT_HOUR on the company's clocks. */
  dueAt: Date;
}

/**
 * The latest week whose report is due at `now`: the week before this Monday once this Monday's
 * 07:00 has passed on the company's clocks, else the week before that.
 */
export function dueWeek(now: Date, timeZone: string): WeeklyPeriod {
  let monday = mondayOf(calendarDayOf(now, timeZone));
  if (now.getTime() < zonedInstant(monday, WEEKLY_REPORT_HOUR, timeZone).getTime()) monday = addDays(monday, -7);
  return {
    start: zonedInstant(addDays(monday, -7), 0, timeZone),
    end: zonedInstant(monday, 0, timeZone),
    dueAt: zonedInstant(monday, WEEKLY_REPORT_HOUR, timeZone),
  };
}

/** Whether an instant is a midnight on the company's clocks. */
function isMidnight(instant: Date, timeZone: string): boolean {
  const clock = wallClock(instant, timeZone);
  return clock.hour === 0 && clock.minute === 0 && clock.second === 0 && instant.getUTCMilliseconds() === 0;
}

const dayFormatters = new Map<string, Intl.DateTimeFormat>();
const timeFormatters = new Map<string, Intl.DateTimeFormat>();
/** The calendar conventions of each language: "2 Nov 2026" in English, "2 nov. 2026" in French. */
const DATE_LOCALES: Record<Locale, string> = { en: 'en-GB', fr: 'fr-FR' };
function formatterOf(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
  locale: Locale = 'en',
) {
  const key = `${locale} ${timeZone}`;
  let formatter = cache.get(key);
  if (!formatter) cache.set(key, (formatter = new Intl.DateTimeFormat(DATE_LOCALES[locale], { timeZone, ...options })));
  return formatter;
}
const dayText = (instant: Date, timeZone: string, locale?: Locale) =>
  formatterOf(dayFormatters, timeZone, { day: 'numeric', month: 'short', year: 'numeric' }, locale).format(instant);
const timeText = (instant: Date, timeZone: string, locale?: Locale) =>
  formatterOf(
    timeFormatters,
    timeZone,
    {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    },
    locale,
  ).format(instant);

/**
 * A period as people read it, on the company's clocks: whole days as "2 Nov 2026 – 8 Nov 2026"
 * (the end is exclusive, so the last day shown is the one before it), anything else with times.
 */
export function periodLabel(period: Period, timeZone: string, locale: Locale = 'en'): string {
  if (isMidnight(period.start, timeZone) && isMidnight(period.end, timeZone)) {
    const lastDay = zonedInstant(addDays(calendarDayOf(period.end, timeZone), -1), 12, timeZone);
    const first = dayText(period.start, timeZone, locale);
    const last = dayText(lastDay, timeZone, locale);
    return first === last ? first : `${first} – ${last}`;
  }
  return `${timeText(period.start, timeZone, locale)} – ${timeText(period.end, timeZone, locale)}`;
}

/** The days of a period for file names: `2026-11-02_2026-11-08` (the last day included). */
export function periodFileStem(period: Period, timeZone: string): string {
  const first = calendarDayOf(period.start, timeZone);
  const endDay = calendarDayOf(period.end, timeZone);
  const last = isMidnight(period.end, timeZone) ? addDays(endDay, -1) : endDay;
  const a = calendarDayText(first);
  // YYYY-MM-DD texts sort as the days do; a period shorter than a day names its one day.
  const b = calendarDayText(last) < a ? a : calendarDayText(last);
  return a === b ? a : `${a}_${b}`;
}
