export { csvCell, toCsv } from '../../common/csv';

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
