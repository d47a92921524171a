/**
 * CSV the way spreadsheets read it safely: RFC 4180 quoting, and no formulas. A cell that a
 * spreadsheet would run as a formula (it starts with = + - @, or a tab or carriage return
 * that some of them skip) gets a leading apostrophe, so data a user typed stays data.
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

/** Saves text as a file the browser downloads. */
export function downloadFile(content: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  // The byte-order mark makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', content], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
