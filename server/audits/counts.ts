import { COUNT_CAP, type CappedCount, type Card } from '../http/lists';

export { cappedCount, type CappedCount } from '../http/lists';

/** A card of a capped count: its label says when the value is a floor ("10,000 or more"). */
export function countCard(key: string, label: string, count: CappedCount, link?: string): Card {
  return {
    key,
    label: count.exact ? label : `${label} (${COUNT_CAP.toLocaleString('en')} or more)`,
    value: count.value,
    ...(link ? { link } : {}),
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** Midnight UTC of the day `now` falls in: "today" on cards is the UTC day. */
export function startOfTodayUtc(now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * `days` before the start of the minute `now` falls in. Cards count "the last 7 days" as of the
 * minute: a window that moved with every millisecond made every call a new filter, whose count
 * could never be kept (server/http/lists.ts, cappedCount).
 */
export function daysAgo(days: number, now = new Date()): Date {
  return new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS - days * DAY_MS);
}

const MINUTE_MS = 60 * 1000;
