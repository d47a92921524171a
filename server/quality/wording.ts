/** How results put numbers into words, the same way in every message. */

export interface Bounds {
  min?: number | string | null;
  max?: number | string | null;
}

/** What fails a bound check: "below 0 or above 100". */
export function outsideInWords(bounds: Bounds): string {
  if (bounds.min != null && bounds.max != null) return `below ${bounds.min} or above ${bounds.max}`;
  return bounds.min != null ? `below ${bounds.min}` : `above ${bounds.max}`;
}

/** What a bound check expects: "between 10 and 20", "at least 10", "at most 20". */
export function expectedInWords(bounds: Bounds): string {
  if (bounds.min != null && bounds.max != null) return `between ${bounds.min} and ${bounds.max}`;
  return bounds.min != null ? `at least ${bounds.min}` : `at most ${bounds.max}`;
}

export const percent = (share: number) => `${Number((share * 100).toFixed(2))}%`;

/** "3 of 2000 rows". */
export const rowsInWords = (failed: number, scanned: number) => `${failed} of ${scanned} ${scanned === 1 ? 'row' : 'rows'}`;

/** The tolerance beside the share found, when the rule has one: "; 1.5% fail, at most 2% allowed". */
export function toleranceInWords(share: number, tolerance: number): string {
  return tolerance > 0 ? `; ${percent(share)} fail, at most ${percent(tolerance)} allowed` : '';
}

/** How old something is: "45 s old", "12 minutes old", "3 days old", "in the future". */
export function ageInWords(seconds: number): string {
  if (seconds < 0) return 'in the future';
  if (seconds < 120) return `${Math.round(seconds)} s old`;
  const minutes = seconds / 60;
  if (minutes < 120) return `${Math.round(minutes)} minutes old`;
  const hours = minutes / 60;
  if (hours < 48) return `${Math.round(hours)} hours old`;
  return `${Math.round(hours / 24)} days old`;
}
