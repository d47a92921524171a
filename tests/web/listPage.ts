import { screen, within } from '@testing-library/react';

/**
 * A declared list as a test reads it (the page object every list test shares): its table once
 * loaded, its rows, a row by its text, its column headers.
 */

/**
 * A declared list's toolbar (filter bar and buttons) shows once its first rows are on screen:
 * waits for it, by its columns button (out of sight, and so not found, until then).
 */
export async function listToolbarShown(): Promise<void> {
  // A list loads its page and its lazily built toolbar: on a machine busy with other runs that
  // takes longer than the one second findBy waits by default.
  await screen.findByRole('button', { name: 'Columns' }, { timeout: 10_000 });
}

/** Waits for a row showing `text` and for the list's toolbar. */
export async function loaded(text: string): Promise<void> {
  await screen.findByText(text, { selector: 'td, td *' });
  await listToolbarShown();
}

/** The table, once a row showing `text` and the list's toolbar are on screen. */
export async function loadedTable(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, { selector: 'td, td *' });
  await listToolbarShown();
  return cell.closest('table')!;
}

/** The row showing `text` in one of its cells. */
export function rowOf(text: string): HTMLElement {
  return screen.getByText(text, { selector: 'td, td *' }).closest('tr')!;
}

/** The rows under the header, of `table` or of the page's only table. */
export function bodyRows(table: HTMLElement = screen.getByRole('table')): HTMLElement[] {
  return within(table).getAllByRole('row').slice(1);
}

/** The column headers' texts, without the unnamed ones and the row actions' column. */
export function headers(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '')
    .filter((text) => text !== '' && text !== 'Actions');
}
