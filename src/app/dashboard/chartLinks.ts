/**
 * Where each chart leads: the list behind its figures, filtered as the figure was counted. Lists
 * read their filter from the address (`?filter=` with the filter form's values).
 */

export function listPath(resource: string, filter: Record<string, unknown>): string {
  return `/${resource}?filter=${encodeURIComponent(JSON.stringify(filter))}`;
}

/** The runs of one status queued on one day. */
export const runsOfDay = (date: string, status: string) => listPath('job-runs', { status: [status], startDate: date, endDate: date });

/** The runs of one status since a day (the pie's 30 days). */
export const runsSince = (startDate: string, status: string) => listPath('job-runs', { status: [status], startDate });

/** The connections of one type. */
export const connectionsOfType = (type: string) => listPath('connections', { type: [type] });

/** The tables: the contract's tables filter has no check result, so the list is unfiltered. */
export const TABLES_PATH = '/tables';

/** Sign-ins (successful events) or failed attempts (failed and blocked) of one day. */
export const accessEventsOfDay = (date: string, kind: 'signins' | 'failures') =>
  listPath('access-events', { status: kind === 'signins' ? ['success'] : ['failure', 'blocked'], startDate: date, endDate: date });

/** A UTC day (`YYYY-MM-DD`) some days before another. */
export function daysBefore(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** Days from one day to another, both counted; NaN when either is not a day. */
export function daysIn(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00.000Z`) - Date.parse(`${from}T00:00:00.000Z`);
  return Math.round(ms / 86_400_000) + 1;
}
