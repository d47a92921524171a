import type { DataProvider, RaRecord, SortPayload, TranslateFunction } from 'react-admin';
import { toCsv } from './csv';
import { fieldLabelKey } from './declaration';
import type { Choice, FieldDeclaration } from './types';

/** Rows per call of an export: the contract's largest page. */
export const EXPORT_PAGE_SIZE = 1000;
/** A guard against a server that keeps answering full pages forever. */
const MAX_EXPORT_PAGES = 1000;

/**
 * Every row of the filtered list, read through the list's own route page after page until a
 * page comes back short. The count is not trusted: past 10,000 rows the server caps it.
 */
export async function fetchAllRows(
  dataProvider: DataProvider,
  resource: string,
  { filter, sort }: { filter: Record<string, unknown>; sort: SortPayload },
): Promise<RaRecord[]> {
  const rows: RaRecord[] = [];
  for (let page = 1; page <= MAX_EXPORT_PAGES; page += 1) {
    const { data } = await dataProvider.getList(resource, { pagination: { page, perPage: EXPORT_PAGE_SIZE }, filter, sort });
    rows.push(...data);
    if (data.length < EXPORT_PAGE_SIZE) break;
  }
  return rows;
}

function choiceName(choices: readonly Choice[] | undefined, value: unknown, translate: TranslateFunction): unknown {
  const choice = choices?.find((candidate) => String(candidate.id) === String(value));
  return choice ? translate(choice.name, { _: choice.name }) : value;
}

/** A field's value as a CSV cell: what the list shows, as text. */
export function exportValue(field: FieldDeclaration, record: RaRecord, translate: TranslateFunction): unknown {
  if (field.exportValue) return field.exportValue(record);
  const value = record[field.source];
  if (value === undefined || value === null) return '';
  const staticChoices = Array.isArray(field.choices) ? (field.choices as readonly Choice[]) : undefined;
  switch (field.type) {
    case 'chips':
      return Array.isArray(value)
        ? value
            .map((item) => (item && typeof item === 'object' ? (item as Record<string, unknown>)[field.chipText ?? 'name'] : item))
            .join('; ')
        : value;
    case 'multiselect':
      return Array.isArray(value) ? value.map((item) => choiceName(staticChoices, item, translate)).join('; ') : value;
    case 'select':
    case 'status':
      return choiceName(staticChoices, value, translate);
    case 'json':
      return JSON.stringify(value);
    default:
      return value;
  }
}

export function buildCsv(
  resource: string,
  columns: readonly FieldDeclaration[],
  rows: readonly RaRecord[],
  translate: TranslateFunction,
): string {
  const header = columns.map((field) => translate(fieldLabelKey(resource, field), { _: field.source }));
  return toCsv(
    header,
    rows.map((record) => columns.map((field) => exportValue(field, record, translate))),
  );
}

/** `users-2026-11-22.csv` */
export function exportFilename(resource: string, now = new Date()): string {
  return `${resource}-${now.toISOString().slice(0, 10)}.csv`;
}
