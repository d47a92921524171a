import { tablesContract } from '../../common/contract/tables';
import { routeSpec } from '../../common/contract/routes';
import type { QualityRuleBody } from '../../common/schemas/quality';
import { callAction, fillPath, readList } from '../../providers/dataProvider';
import { apiRequest, type Saved } from '../../providers/http';
import { DICTIONARY_PAGE } from './related';
import type { ColumnsRefresh, DictionaryEntry, EntryEdit, QualityRun, QualityRunSummary, UploadResult } from './types';

/**
 * The tables area's calls beyond the declared routes and lists (the pages of the dictionary and
 * of the rules are related lists, ./related.ts): the contract's actions
 * (common/contract/tables.ts) for the columns, the dictionary's CSV, saving and deleting rules,
 * and their runs; the dictionary's edits go through the table's update. Query keys start with
 * the resource name, so react-admin's refresh reloads them with the rest.
 */

const { actions } = tablesContract;

// ---- Dictionary ------------------------------------------------------------------------------

/** Every column of the table (the rule form's choice): the contract's largest page. */
export const COLUMNS_LIMIT = 1000;

export async function getColumns(tableId: string, signal?: AbortSignal): Promise<DictionaryEntry[]> {
  return readList(await apiRequest(fillPath(DICTIONARY_PAGE, { id: tableId, offset: 0, limit: COLUMNS_LIMIT }), { signal }))
    .rows as unknown as DictionaryEntry[];
}

/** Edits one dictionary entry: its name and the fields that changed. */
export async function saveEntry(tableId: string, name: string, changes: EntryEdit): Promise<string | undefined> {
  const { path, method } = routeSpec(tablesContract.routes.update, 'update');
  const answer = await apiRequest<{ message?: string }>(fillPath(path, { id: tableId }), {
    method,
    body: { columns: [{ name, ...changes }] },
  });
  return answer?.message;
}

/** Sets the table's watermark column (null: none), through the table's update. */
export async function saveWatermarkColumn(tableId: string, watermarkColumn: string | null): Promise<string | undefined> {
  const { path, method } = routeSpec(tablesContract.routes.update, 'update');
  const answer = await apiRequest<{ message?: string }>(fillPath(path, { id: tableId }), { method, body: { watermarkColumn } });
  return answer?.message;
}

/** The file name a download answer names (`Content-Disposition`), if any. */
function attachmentName(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (encoded) return decodeURIComponent(encoded[1]);
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
}

/**
 * The whole dictionary as CSV (`GET /table/dictionary/{id}`). The call needs the token header
 * like every other, so it cannot be a plain link: the action's file answer is read as text here.
 */
export async function downloadDictionary(tableId: string): Promise<{ text: string; filename: string | null }> {
  const response = await callAction(actions.dictionaryCsv, { values: { id: tableId } });
  return { text: await response.text(), filename: attachmentName(response.headers.get('content-disposition')) };
}

/** The upload's body: one file part. */
export function uploadForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/** Describes columns from a CSV file; the server checks the whole file before writing anything. */
export async function uploadDictionary(tableId: string, file: File): Promise<Saved<UploadResult>> {
  const answer = await callAction(actions.uploadDictionary, { values: { id: tableId }, body: uploadForm(file) });
  return { message: answer.message, data: answer.data };
}

/** Reads the columns from the source again. */
export async function refreshColumns(tableId: string): Promise<Saved<ColumnsRefresh>> {
  const answer = await callAction(actions.refreshColumns, { values: { id: tableId } });
  return { message: answer.message, data: answer.data };
}

/**
 * The upload's refusal, line by line: `line 7: …; line 9: …` as the server joins them.
 * Another message is one problem.
 */
export function uploadProblems(message: string): string[] {
  return message
    .split(/;\s*(?=line \d+:)/)
    .map((line) => line.trim())
    .filter(Boolean);
}

// ---- Data quality ----------------------------------------------------------------------------

/** Creates a rule, or changes the one the body's `id` names. */
export async function saveRule(tableId: string, body: QualityRuleBody) {
  return callAction(actions.saveRule, { values: { id: tableId }, body });
}

export async function deleteRule(ruleId: string): Promise<string | undefined> {
  return (await callAction(actions.deleteRule, { values: { id: ruleId } }))?.message;
}

/** Runs the table's active rules now and answers the run; `full` reads every row of a table with a watermark column. */
export async function runChecks(tableId: string, full = false): Promise<Saved<QualityRun>> {
  const answer = await callAction(actions.runChecks, { values: { id: tableId }, body: full ? { full: true } : {} });
  return { message: answer.message, data: answer.data };
}

export const columnsKey = (tableId: string) => ['tables', 'columns', tableId];

// ---- Kept runs and their failing rows ----------------------------------------------------------

/** A page of the table's runs, newest first, without their results. */
export async function getQualityRuns(tableId: string, offset: number, limit: number, signal?: AbortSignal) {
  return (await callAction(actions.qualityRuns, { values: { id: tableId, offset, limit }, signal })).data as {
    rows: QualityRunSummary[];
    count: number;
  };
}

/** One kept run with its results. */
export async function getQualityRun(runId: string, signal?: AbortSignal): Promise<QualityRun> {
  return (await callAction(actions.qualityRun, { values: { id: runId }, signal })).data as QualityRun;
}

/** A page of the failing rows one rule kept in a run, and how many it kept. */
export async function getFailingRows(runId: string, ruleId: string, offset: number, limit: number, signal?: AbortSignal) {
  return (await callAction(actions.failingRows, { values: { id: runId, ruleId, offset, limit }, signal })).data;
}

/** Every failing row one rule kept in a run, as the server's CSV file. */
export async function downloadFailingRows(runId: string, ruleId: string): Promise<{ text: string; filename: string | null }> {
  const response = await callAction(actions.failingRowsCsv, { values: { id: runId, ruleId } });
  return { text: await response.text(), filename: attachmentName(response.headers.get('content-disposition')) };
}

export const qualityRunsKey = (tableId: string) => ['tables', 'qualityRuns', tableId];
export const failingRowsKey = (runId: string, ruleId: string) => ['tables', 'failingRows', runId, ruleId];
