import { and, eq, sql } from 'drizzle-orm';
import { csvValue, toCsv } from '../../common/csv';
import { dictionaryFields, type DictionaryEdit } from '../../common/schemas/tables';
import type { Db } from '../db/client';
import { tableColumns } from '../db/schema';
import type { DictionaryEntry } from './records';

/**
 * A data dictionary as a CSV file, both ways: the download (which is also the template) and the
 * upload, checked whole before anything is written.
 */

export const DICTIONARY_UPLOAD_MAX_BYTES = 1024 * 1024;
export const DICTIONARY_UPLOAD_MAX_ROWS = 5_000;

/** Columns a file may change, by header. */
const EDITABLE = { description: 'description', business_name: 'businessName', sensitivity: 'sensitivity', owner: 'owner' } as const;
/** Columns the download adds to tell the entries apart; an upload may carry them and they are not read. */
const INFORMATIONAL = ['position', 'data_type', 'nullable', 'present'] as const;
const HEADER = ['column', 'position', 'data_type', 'nullable', 'description', 'business_name', 'sensitivity', 'owner', 'present'];

export function dictionaryCsv(entries: readonly DictionaryEntry[]): string {
  return toCsv(
    HEADER,
    entries.map((e) => [
      e.name,
      e.position,
      e.dataType,
      e.nullable ? 'yes' : 'no',
      e.description,
      e.businessName,
      e.sensitivity,
      e.owner,
      e.present ? 'yes' : 'no',
    ]),
  );
}

/** A name from the file as a message shows it: quoted, and cut if long (a cell may be 64 KB). */
const shown = (name: string) => `"${name.length > 60 ? `${name.slice(0, 60)}…` : name}"`;
/** Names a message lists: the first ten, then how many more, so that a hostile file cannot blow it up. */
const listed = (names: readonly string[]) =>
  names.slice(0, 10).map(shown).join(', ') + (names.length > 10 ? ` and ${names.length - 10} more` : '');

export type UploadResult = { ok: true; edits: DictionaryEdit[] } | { ok: false; problems: string[] };

/**
 * The edits a file asks for, or every problem in it by line: a column the table does not have,
 * a value a field does not take, a column named twice, an unknown header. An empty cell keeps
 * what is stored.
 */
export async function readDictionaryUpload(text: string, columnNames: ReadonlySet<string>): Promise<UploadResult> {
  // The CSV parser comes with the first upload, not with the server (docs/benchmarks.md, "Memory").
  const { parse } = await import('csv-parse/sync');
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, max_record_size: 64 * 1024 });
  } catch (err) {
    return { ok: false, problems: [`the file is not valid CSV: ${(err as Error).message}`] };
  }
  if (records.length === 0)
    return { ok: false, problems: ['the file is empty: the first line must name the columns, e.g. column,description'] };
  const header = records[0].map((h) => h.trim().toLowerCase());
  const problems: string[] = [];
  const unknown = new Set(
    header.filter((h) => h !== 'column' && !Object.hasOwn(EDITABLE, h) && !(INFORMATIONAL as readonly string[]).includes(h)),
  );
  if (unknown.size > 0)
    problems.push(`line 1: unknown columns ${listed([...unknown])}; use column, description, business_name, sensitivity, owner`);
  if (!header.includes('column')) problems.push('line 1: the header must have a "column" column naming each table column');
  // Counted with sets: a header may hold tens of thousands of cells.
  const named = new Set<string>();
  const repeated = new Set<string>();
  for (const h of header) (named.has(h) ? repeated : named).add(h);
  if (repeated.size > 0) problems.push(`line 1: ${listed([...repeated])} named twice`);
  if (problems.length > 0) return { ok: false, problems };
  if (records.length - 1 > DICTIONARY_UPLOAD_MAX_ROWS)
    return { ok: false, problems: [`the file has ${records.length - 1} rows; at most ${DICTIONARY_UPLOAD_MAX_ROWS} are read`] };

  const edits: DictionaryEdit[] = [];
  const seen = new Map<string, number>();
  records.slice(1).forEach((record, index) => {
    const line = index + 2;
    const cell = (name: string) => csvValue(record[header.indexOf(name)] ?? '').trim();
    const column = cell('column');
    if (!column) {
      problems.push(`line ${line}: the column name is empty`);
      return;
    }
    if (!columnNames.has(column)) {
      problems.push(`line ${line}: column ${shown(column)} is not a column of this table`);
      return;
    }
    if (seen.has(column)) {
      problems.push(`line ${line}: column ${shown(column)} is already described on line ${seen.get(column)}`);
      return;
    }
    seen.set(column, line);
    const edit: DictionaryEdit = { name: column };
    for (const [headerName, field] of Object.entries(EDITABLE) as Array<
      [keyof typeof EDITABLE, (typeof EDITABLE)[keyof typeof EDITABLE]]
    >) {
      if (!header.includes(headerName)) continue;
      const value = cell(headerName);
      if (value === '') continue;
      const parsed = dictionaryFields[field].safeParse(field === 'sensitivity' ? value.toLowerCase() : value);
      if (!parsed.success) {
        problems.push(`line ${line}: ${headerName} ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
        continue;
      }
      (edit as Record<string, unknown>)[field] = parsed.data;
    }
    edits.push(edit);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, edits };
}

/** Writes dictionary edits (in the caller's transaction); answers how many entries changed. */
export async function applyDictionaryEdits(
  tx: Db,
  companyId: string,
  tableId: string,
  userId: string,
  current: readonly DictionaryEntry[],
  edits: readonly DictionaryEdit[],
): Promise<{
  updated: number;
  unchanged: number;
  changes: Record<string, { before: Record<string, unknown>; after: Record<string, unknown> }>;
}> {
  const byName = new Map(current.map((entry) => [entry.name, entry]));
  const changes: Record<string, { before: Record<string, unknown>; after: Record<string, unknown> }> = {};
  let unchanged = 0;
  for (const { name, ...fields } of edits) {
    const entry = byName.get(name)!;
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined || entry[field as keyof DictionaryEntry] === value) continue;
      before[field] = entry[field as keyof DictionaryEntry];
      after[field] = value;
    }
    if (Object.keys(after).length === 0) {
      unchanged += 1;
      continue;
    }
    await tx
      .update(tableColumns)
      .set({ ...after, updatedBy: userId, updatedAt: sql`now()` })
      .where(and(eq(tableColumns.companyId, companyId), eq(tableColumns.tableId, tableId), eq(tableColumns.name, name)));
    changes[name] = { before, after };
  }
  return { updated: Object.keys(changes).length, unchanged, changes };
}
