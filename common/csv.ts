/**
 * CSV the way spreadsheets read it safely: RFC 4180 quoting, and no formulas. A cell that a
 * spreadsheet would run as a formula (it starts with = + - @, or a tab or carriage return
 * that some of them skip) gets a leading apostrophe, so data a user typed stays data; reading a
 * cell back (csvValue) takes that apostrophe off again, so a file round-trips unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  // A number is a value, not a formula, even when negative.
  if (typeof value === 'number') return String(value);
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n');
}

/** A cell's text as it was before csvCell protected it from spreadsheets. */
export function csvValue(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
