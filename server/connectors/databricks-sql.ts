import { formatSeconds, serviceWords, sleep, type HttpRequest } from './http';
import { ConnectorError, type QueryOptions } from './types';

/**
 * One query on a Databricks SQL warehouse, through the Statement Execution API 2.0: submitted
 * (`POST /api/2.0/sql/statements`, results inline as JSON arrays), waited for by polling while the
 * warehouse starts or runs it, read chunk by chunk up to the rows wanted (a result that never ends
 * is refused, at its time limit or at MAX_RESULT_CHUNKS), and cancelled when its time runs out, so
 * that a warehouse does not go on with work nobody waits for.
 *
 * A warehouse has no read-only transaction: what keeps this read-only is that nothing but one
 * query (SELECT, WITH) is sent. The statements come from the server (the quality rules' SQL, with
 * quoted identifiers and parameters); a company's own SQL never reaches here (server/sql/company-sql.ts).
 */

/** An authenticated call to the workspace, answered as JSON (databricks.ts binds the host and token). */
export type WorkspaceCall = <T>(path: string, request?: HttpRequest) => Promise<T>;

/** How long the submit waits for the statement to finish before answering with its id (the API takes 0 or 5 to 50 s). */
const SUBMIT_WAIT_S = 10;
/** Polls start this far apart and double up to POLL_MAX_MS: a quick statement is seen soon, a long one is not asked about too often. */
const POLL_FIRST_MS = 200;
const POLL_MAX_MS = 5_000;

/**
 * Result chunks one query reads at most. An INLINE result is at most 25 MiB (the warehouse aborts a
 * statement whose result is larger), so even in chunks of 25 KiB a whole result fits in 1,000; a
 * chain longer than that is not a result but a warehouse that does not stop, and it is refused
 * before it fills memory or holds the query until its time limit.
 */
export const MAX_RESULT_CHUNKS = 1_000;

const STATEMENTS = '/api/2.0/sql/statements';

type State = 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED' | 'CLOSED';

interface StatementError {
  error_code?: string;
  message?: string;
}

interface ResultChunk {
  chunk_index?: number;
  data_array?: Array<Array<string | null>>;
  next_chunk_index?: number;
}

interface StatementResponse {
  statement_id?: string;
  status?: { state?: State; error?: StatementError; sql_state?: string };
  manifest?: { schema?: { columns?: Array<{ name: string; type_name?: string; position?: number }> } };
  result?: ResultChunk;
}

/** Whether a statement is exactly one query: it starts with SELECT or WITH, and holds no `;` nor comment outside its quoted text. */
export function isSingleQuery(sql: string): boolean {
  if (!/^\s*(select|with)\b/i.test(sql)) return false;
  let quote: string | undefined;
  for (let i = 0; i < sql.length; i += 1) {
    const char = sql[i]!;
    if (quote) {
      // Databricks SQL escapes a quote inside a string with a backslash.
      if (char === '\\' && quote !== '`') i += 1;
      else if (char === quote) quote = undefined;
    } else if (char === "'" || char === '"' || char === '`') {
      quote = char;
    } else if (char === ';' || (char === '-' && sql[i + 1] === '-') || (char === '/' && sql[i + 1] === '*')) {
      return false;
    }
  }
  return quote === undefined;
}

/**
 * The values of a statement's `:p1`, `:p2`… markers. Each is sent as text with no type (a STRING),
 * which the warehouse reads as the type of what it is compared with, as PostgreSQL reads an
 * untyped `$1`: a bound of 10 against an integer column, a date against a date column.
 */
function parametersOf(params: readonly unknown[]) {
  return params.map((value, index) => {
    const name = `p${index + 1}`;
    if (value === null || value === undefined) return { name };
    if (value instanceof Date) return { name, value: value.toISOString() };
    return { name, value: String(value) };
  });
}

/** What a failed statement is, by the warehouse's error: a query the rule made that it refused is 'invalid', so other rules still count. */
function failureKind(error: StatementError | undefined, sqlState: string | undefined): ConnectorError['kind'] {
  // 42P01: no such table or view; 42704: no such catalog or schema. The table is gone: the run ends.
  if (sqlState === '42P01' || sqlState === '42704') return 'not_found';
  if (sqlState === '42501' || error?.error_code === 'UNAUTHENTICATED') return 'auth';
  switch (error?.error_code) {
    case 'TEMPORARILY_UNAVAILABLE':
    case 'SERVICE_UNDER_MAINTENANCE':
    case 'WORKSPACE_TEMPORARILY_UNAVAILABLE':
      return 'unreachable';
    case 'DEADLINE_EXCEEDED':
      return 'timeout';
    case 'INTERNAL_ERROR':
    case 'RESOURCE_EXHAUSTED':
    case 'IO_ERROR':
    case 'ABORTED':
    case 'CANCELLED':
      return 'failed';
    default:
      return 'invalid';
  }
}

/** A statement that ended without rows, in the warehouse's own words (at most 200 characters of them). */
function endedError(response: StatementResponse): ConnectorError {
  const state = response.status?.state;
  if (state === 'FAILED') {
    const said = serviceWords(response.status?.error?.message) ?? 'the statement failed';
    return new ConnectorError(`Databricks: ${said}`, failureKind(response.status?.error, response.status?.sql_state));
  }
  const said = serviceWords(response.status?.error?.message);
  const what =
    state === 'CANCELED' ? 'the statement was cancelled on the warehouse' : 'the statement was closed before its result was read';
  return new ConnectorError(`Databricks: ${what}${said ? ` (${said})` : ''}`, 'failed');
}

const NUMBER_TYPES = new Set(['BYTE', 'SHORT', 'INT', 'FLOAT', 'DOUBLE']);

/**
 * A value of a JSON_ARRAY result, which gives every value as text, read by its column's type:
 * integers and floating-point numbers as numbers (a LONG or DECIMAL only when a number holds it
 * exactly, else its text, as PostgreSQL's bigint and numeric come), booleans as booleans, and the
 * rest — dates and timestamps among them — as the warehouse wrote them, as the other sources give
 * their dates.
 */
export function databricksValue(text: string | null, typeName: string | undefined): unknown {
  if (text === null) return null;
  const type = (typeName ?? 'STRING').toUpperCase();
  if (NUMBER_TYPES.has(type)) return Number(text);
  if (type === 'LONG') return Number.isSafeInteger(Number(text)) ? Number(text) : text;
  if (type === 'DECIMAL') return holdsExactly(text) ? Number(text) : text;
  if (type === 'BOOLEAN') return text === 'true';
  return text;
}

/** A decimal's text of at most 15 significant digits: a double holds it exactly. */
function holdsExactly(text: string): boolean {
  const digits = text.replace(/^[-+]/, '').replace('.', '').replace(/^0+/, '');
  return /^[-+]?\d*\.?\d+$/.test(text) && digits.length <= 15;
}

export interface StatementTarget {
  call: WorkspaceCall;
  warehouseId: string;
}

/** Runs one query on the warehouse and answers its rows (at most `options.maxRows`). */
export async function runDatabricksQuery<Row extends Record<string, unknown>>(
  target: StatementTarget,
  sql: string,
  params: readonly unknown[],
  options: QueryOptions,
): Promise<Row[]> {
  if (!isSingleQuery(sql)) {
    throw new ConnectorError('Only one query (SELECT or WITH … SELECT) runs on a Databricks SQL warehouse', 'invalid');
  }
  const deadline = performance.now() + options.timeoutMs;
  const remainingMs = () => deadline - performance.now();
  const waitS = Math.min(SUBMIT_WAIT_S, Math.floor(options.timeoutMs / 1000));
  const maxRows = options.maxRows === undefined ? undefined : Math.max(0, Math.floor(options.maxRows));
  // Not idempotent: the http layer sends it again only after a 429, which the API answers before starting anything.
  let response = await target.call<StatementResponse>(STATEMENTS, {
    method: 'POST',
    body: {
      warehouse_id: target.warehouseId,
      statement: sql,
      parameters: parametersOf(params),
      // Below 5 s the API takes only 0 s: answer at once, and poll.
      wait_timeout: `${waitS >= 5 ? waitS : 0}s`,
      on_wait_timeout: 'CONTINUE',
      disposition: 'INLINE',
      format: 'JSON_ARRAY',
      ...(maxRows === undefined ? {} : { row_limit: maxRows }),
    },
  });
  const id = response.statement_id;
  if (!id) throw new ConnectorError('Databricks answered the statement without its id', 'failed');
  const path = `${STATEMENTS}/${encodeURIComponent(id)}`;

  let pause = POLL_FIRST_MS;
  while (response.status?.state === 'PENDING' || response.status?.state === 'RUNNING') {
    if (remainingMs() <= 0) {
      await target.call(`${path}/cancel`, { method: 'POST', idempotent: true }).catch(() => {});
      throw new ConnectorError(
        `The query did not finish within ${formatSeconds(options.timeoutMs)}; it was cancelled on the warehouse`,
        'timeout',
      );
    }
    await sleep(Math.max(0, Math.min(pause, remainingMs())));
    pause = Math.min(pause * 2, POLL_MAX_MS);
    response = await target.call<StatementResponse>(path);
  }
  if (response.status?.state !== 'SUCCEEDED') throw endedError(response);

  const columns = response.manifest?.schema?.columns ?? [];
  const rows: Row[] = [];
  const take = (chunk: ResultChunk | undefined) => {
    for (const values of Array.isArray(chunk?.data_array) ? chunk.data_array : []) {
      if (!Array.isArray(values)) continue;
      if (maxRows !== undefined && rows.length >= maxRows) return;
      rows.push(
        Object.fromEntries(columns.map((column, index) => [column.name, databricksValue(values[index] ?? null, column.type_name)])) as Row,
      );
    }
  };
  let chunk = response.result;
  take(chunk);
  // The first chunk is chunk 0; each one names the next, which must come after it.
  let index = 0;
  let chunksRead = 1;
  // The index goes into the next call's path: a workspace URL is the company's to give, and only a whole number is followed.
  while (Number.isSafeInteger(chunk?.next_chunk_index) && (maxRows === undefined || rows.length < maxRows)) {
    const next = chunk!.next_chunk_index!;
    if (next <= index) {
      throw new ConnectorError(
        `Databricks: result chunk ${index} named chunk ${next} to follow it, which does not move the result forward`,
        'failed',
      );
    }
    if (chunksRead >= MAX_RESULT_CHUNKS) {
      throw new ConnectorError(
        `Databricks: the result is longer than ${MAX_RESULT_CHUNKS.toLocaleString('en-US')} chunks, more than one query may read`,
        'failed',
      );
    }
    if (remainingMs() <= 0) {
      throw new ConnectorError(`The query's result was not read in full within ${formatSeconds(options.timeoutMs)}`, 'timeout');
    }
    chunk = await target.call<ResultChunk>(`${path}/result/chunks/${next}`);
    index = next;
    chunksRead += 1;
    take(chunk);
  }
  return rows;
}
