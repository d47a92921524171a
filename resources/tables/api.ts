import { readList } from '../../providers/dataProvider';
import { API_BASE, ApiError, apiRequest, type Answer, type Saved, pathId } from '../../providers/http';
import { getAccessToken } from '../../providers/storage';
import type { QualityRuleBody } from '../../common/schemas/quality';
import type { ColumnsRefresh, DictionaryEntry, EntryEdit, QualityRule, QualityRun, UploadResult } from './types';

/**
 * The tables area's calls beyond the declared routes (docs/api/tables.md): the dictionary, its
 * CSV, the data-quality rules and their runs. Query keys start with the resource name, so
 * react-admin's refresh reloads them with the rest.
 */

export interface Page<T> {
  rows: T[];
  count?: number;
  countExact?: boolean;
}

export interface PageRequest {
  offset: number;
  limit: number;
}

const id = pathId;

function pageOf<T>(answer: unknown): Page<T> {
  const list = readList(answer);
  return { rows: list.rows as unknown as T[], count: list.count, countExact: list.countExact };
}

// ---- Dictionary ------------------------------------------------------------------------------

/** A page of the dictionary, by position; with a search, the entries whose texts hold it. */
export async function getDictionary(
  tableId: string,
  { offset, limit }: PageRequest,
  search: string,
  signal?: AbortSignal,
): Promise<Page<DictionaryEntry>> {
  const path = search
    ? `/tables/dataDictionary/search/tableId/${id(tableId)}/${offset}/${limit}`
    : `/tables/dataDictionary/tableId/${id(tableId)}/${offset}/${limit}`;
  return pageOf<DictionaryEntry>(await apiRequest(path, { query: search ? { searchText: search } : undefined, signal }));
}

/** Every column of the table (the rule form's choice): the contract's largest page. */
export const COLUMNS_LIMIT = 1000;

export async function getColumns(tableId: string, signal?: AbortSignal): Promise<DictionaryEntry[]> {
  return (await getDictionary(tableId, { offset: 0, limit: COLUMNS_LIMIT }, '', signal)).rows;
}

/** Edits one dictionary entry: its name and the fields that changed. */
export async function saveEntry(tableId: string, name: string, changes: EntryEdit): Promise<string | undefined> {
  const answer = await apiRequest<{ message?: string }>(`/table/${id(tableId)}`, {
    method: 'PUT',
    body: { columns: [{ name, ...changes }] },
  });
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
 * like every other, so it cannot be a plain link; the HTTP client reads answers as JSON, hence
 * a fetch of its own here that reads the text as it is.
 */
export async function downloadDictionary(tableId: string): Promise<{ text: string; filename: string | null }> {
  const token = getAccessToken();
  const response = await fetch(`${API_BASE}/table/dictionary/${id(tableId)}`, {
    headers: { accept: 'text/csv', ...(token ? { 'x-access-token': token } : {}) },
  });
  const text = await response.text();
  if (!response.ok) {
    let message = response.statusText || `Request failed with status ${response.status}`;
    try {
      const body = JSON.parse(text) as { message?: unknown };
      if (typeof body?.message === 'string' && body.message) message = body.message;
    } catch {
      // Not JSON: the status says what happened.
    }
    throw new ApiError(message, response.status, text);
  }
  return { text, filename: attachmentName(response.headers.get('content-disposition')) };
}

/** The upload's body: one file part. */
export function uploadForm(file: File): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
}

/** Describes columns from a CSV file; the server checks the whole file before writing anything. */
export async function uploadDictionary(tableId: string, file: File): Promise<Saved<UploadResult>> {
  const form = uploadForm(file);
  const answer = await apiRequest<Answer<UploadResult>>(`/tables/dictionary/upload/${id(tableId)}`, { method: 'POST', body: form });
  return { message: answer.message, data: answer.data };
}

/** Reads the columns from the source again. */
export async function refreshColumns(tableId: string): Promise<Saved<ColumnsRefresh>> {
  const answer = await apiRequest<Answer<ColumnsRefresh>>(`/table/configure/${id(tableId)}`, { method: 'POST', body: {} });
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

export interface RuleFilter {
  search: string;
  functionType?: string;
  functionName?: string;
}

/**
 * A page of the table's rules: the filter route when a kind is chosen, the search route for a
 * search alone, else the plain list.
 */
export async function getRules(
  tableId: string,
  { offset, limit }: PageRequest,
  filter: RuleFilter,
  signal?: AbortSignal,
): Promise<Page<QualityRule>> {
  const search = filter.search.trim();
  if (filter.functionType || filter.functionName) {
    const body: Record<string, string> = {};
    if (filter.functionType) body.functionType = filter.functionType;
    if (filter.functionName) body.functionName = filter.functionName;
    if (search) body.searchText = search;
    return pageOf(
      await apiRequest(`/tables/dataQuality/filter/tableId/${id(tableId)}/${offset}/${limit}`, { method: 'POST', body, signal }),
    );
  }
  if (search) {
    return pageOf(
      await apiRequest(`/tables/dataQuality/search/tableId/${id(tableId)}/${offset}/${limit}`, { query: { searchText: search }, signal }),
    );
  }
  return pageOf(await apiRequest(`/table/dataQuality/${id(tableId)}/${offset}/${limit}`, { signal }));
}

/** Creates a rule, or changes the one the body's `id` names. */
export async function saveRule(tableId: string, body: QualityRuleBody): Promise<Saved<QualityRule>> {
  const answer = await apiRequest<Answer<QualityRule>>(`/table/dataQuality/${id(tableId)}`, { method: 'POST', body });
  return { message: answer.message, data: answer.data };
}

export async function deleteRule(ruleId: string): Promise<string | undefined> {
  return (await apiRequest<{ message?: string }>(`/table/dataQuality/${id(ruleId)}`, { method: 'DELETE' }))?.message;
}

/** Runs the table's active rules now and answers the run. */
export async function runChecks(tableId: string): Promise<Saved<QualityRun>> {
  const answer = await apiRequest<Answer<QualityRun>>(`/table/${id(tableId)}/configure`, { method: 'POST', body: {} });
  return { message: answer.message, data: answer.data };
}

export const dictionaryKey = (tableId: string) => ['tables', 'dictionary', tableId];
export const columnsKey = (tableId: string) => ['tables', 'columns', tableId];
export const rulesKey = (tableId: string) => ['tables', 'rules', tableId];
