import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import pg from 'pg';
import { POSTGRES_URL } from './db-helpers';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';

/**
 * A Databricks SQL warehouse on this machine: the Statement Execution API 2.0 (submit, poll,
 * result chunks, cancel) answered as its reference describes, the statements run on the local
 * PostgreSQL. Only what Databricks SQL and PostgreSQL write differently is translated, in
 * TRANSLATIONS below; the rest of each statement runs as it came.
 */

export const WAREHOUSE_TOKEN = 'dapi-warehouse-0123456789';
export const WAREHOUSE_ID = 'abcdef0123456789';

/** Databricks SQL → PostgreSQL, for what the quality SQL uses and PostgreSQL writes otherwise. */
const TRANSLATIONS: Array<[RegExp, (...match: string[]) => string]> = [
  // `name` → "name"
  [/`((?:[^`]|``)*)`/g, (_, name) => `"${name!.replace(/``/g, '`').replace(/"/g, '""')}"`],
  // :p1 → $1
  [/:p(\d+)\b/g, (_, position) => `$${position}`],
  [/\brlike\b/gi, () => '~'],
  [/\bas string\)/gi, () => 'as text)'],
  [/\bas double\)/gi, () => 'as double precision)'],
];

export const translated = (sql: string) => TRANSLATIONS.reduce((text, [pattern, replace]) => text.replace(pattern, replace), sql);

/** The manifest's type_name of a PostgreSQL result column, by its type's oid. */
const TYPE_NAMES: Record<number, string> = {
  16: 'BOOLEAN',
  20: 'LONG',
  21: 'SHORT',
  23: 'INT',
  700: 'FLOAT',
  701: 'DOUBLE',
  1082: 'DATE',
  1114: 'TIMESTAMP',
  1184: 'TIMESTAMP',
  1700: 'DECIMAL',
};

/** How the next statements are answered; each test sets what it needs. */
export interface Scenario {
  /** Answers to give the submit before taking it (a 429, a 503). */
  submitRefusals: Array<{ status: number; body: unknown; headers?: Record<string, string> }>;
  /** Answers to give the next poll before answering it (a 503). */
  pollRefusals: Array<{ status: number; body: unknown }>;
  /** Polls answered PENDING before the statement runs. */
  pendingPolls: number;
  /** The statement never finishes (until cancelled). */
  never: boolean;
  /** Rows per result chunk. */
  chunkSize: number;
  /**
   * What each result chunk names as the next one: the chunk after it while rows remain (`result`),
   * the chunk after it forever, past the rows (`endless`), or from chunk 1 on itself (`repeated`).
   */
  chunkChain: 'result' | 'endless' | 'repeated';
  /** How long a request for a result chunk waits before it is answered. */
  chunkDelayMs: number;
}

export const defaultScenario = (): Scenario => ({
  submitRefusals: [],
  pollRefusals: [],
  pendingPolls: 0,
  never: false,
  chunkSize: 1000,
  chunkChain: 'result',
  chunkDelayMs: 0,
});

interface Statement {
  id: string;
  state: 'PENDING' | 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  sql: string;
  params: Array<string | null>;
  rowLimit: number | undefined;
  pollsLeft: number;
  never: boolean;
  chunkSize: number;
  chunkChain: Scenario['chunkChain'];
  columns?: Array<{ name: string; type_name: string; position: number }>;
  rows?: Array<Array<string | null>>;
  error?: { error_code: string; message: string };
  sqlState?: string;
}

export interface FakeWarehouse {
  server: LocalServer;
  scenario: Scenario;
  /** Statements the warehouse took (refused submits are not among them), as sent. */
  statements: Statement[];
  close(): Promise<void>;
}

/** Starts the warehouse; statements run on PostgreSQL with `searchPath` first (where unix_micros is defined). */
export async function startFakeWarehouse(searchPath: string): Promise<FakeWarehouse> {
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    // JSON_ARRAY gives every value as text: PostgreSQL's own text of it.
    types: { getTypeParser: () => (value: string) => value } as unknown as typeof pg.types,
  });
  await client.connect();
  await client.query(`set search_path to ${searchPath}, public`);
  const statements: Statement[] = [];
  const byId = new Map<string, Statement>();
  const warehouse: FakeWarehouse = {
    server: undefined as unknown as LocalServer,
    scenario: defaultScenario(),
    statements,
    async close() {
      await warehouse.server.close();
      await client.end();
    },
  };

  async function execute(statement: Statement) {
    try {
      const result = await client.query({ text: translated(statement.sql), values: statement.params, rowMode: 'array' });
      statement.columns = result.fields.map((field, index) => ({
        name: field.name,
        type_name: TYPE_NAMES[field.dataTypeID] ?? 'STRING',
        position: index,
      }));
      const boolean = statement.columns.map((column) => column.type_name === 'BOOLEAN');
      const rows = (result.rows as Array<Array<string | null>>).map((row) =>
        row.map((value, index) => (boolean[index] && value !== null ? (value === 't' ? 'true' : 'false') : value)),
      );
      statement.rows = statement.rowLimit === undefined ? rows : rows.slice(0, statement.rowLimit);
      statement.state = 'SUCCEEDED';
    } catch (err) {
      const error = err as { message: string; code?: string };
      statement.state = 'FAILED';
      statement.error = { error_code: 'BAD_REQUEST', message: error.message };
      statement.sqlState = error.code;
    }
  }

  const chunkOf = (statement: Statement, index: number) => {
    const rows = statement.rows ?? [];
    const start = index * statement.chunkSize;
    const last = Math.max(0, Math.ceil(rows.length / statement.chunkSize) - 1);
    const data = rows.slice(start, start + statement.chunkSize);
    const next = { result: index < last ? index + 1 : undefined, endless: index + 1, repeated: Math.max(index, 1) }[statement.chunkChain];
    return {
      chunk_index: index,
      row_offset: start,
      row_count: data.length,
      data_array: data,
      ...(next === undefined
        ? {}
        : { next_chunk_index: next, next_chunk_internal_link: `/api/2.0/sql/statements/${statement.id}/result/chunks/${next}` }),
    };
  };

  /** The StatementResponse of a statement as it stands. */
  const answerOf = (statement: Statement) => {
    const status = {
      state: statement.state,
      ...(statement.error ? { error: statement.error, sql_state: statement.sqlState } : {}),
    };
    if (statement.state !== 'SUCCEEDED') return { statement_id: statement.id, status };
    const rows = statement.rows ?? [];
    return {
      statement_id: statement.id,
      status,
      manifest: {
        format: 'JSON_ARRAY',
        schema: { column_count: statement.columns!.length, columns: statement.columns },
        total_chunk_count: Math.max(1, Math.ceil(rows.length / statement.chunkSize)),
        total_row_count: rows.length,
        truncated: false,
      },
      result: chunkOf(statement, 0),
    };
  };

  /** A statement moves on when polled: PENDING for as many polls as asked, then it runs (unless it never ends). */
  async function advance(statement: Statement) {
    if (statement.state !== 'PENDING' && statement.state !== 'RUNNING') return;
    if (statement.never) {
      statement.state = 'RUNNING';
      return;
    }
    if (statement.pollsLeft > 0) {
      statement.pollsLeft -= 1;
      return;
    }
    await execute(statement);
  }

  async function answer(request: ReceivedRequest, response: ServerResponse) {
    if (request.headers.authorization !== `Bearer ${WAREHOUSE_TOKEN}`) {
      return sendJson(response, 403, { error_code: '403', message: 'Invalid access token.' });
    }
    const scenario = warehouse.scenario;
    if (request.method === 'POST' && request.path === '/api/2.0/sql/statements') {
      const refusal = scenario.submitRefusals.shift();
      if (refusal) return sendJson(response, refusal.status, refusal.body, refusal.headers);
      const body = JSON.parse(request.body.toString('utf8')) as {
        warehouse_id: string;
        statement: string;
        parameters?: Array<{ name: string; value?: string; type?: string }>;
        row_limit?: number;
      };
      if (body.warehouse_id !== WAREHOUSE_ID) {
        return sendJson(response, 404, {
          error_code: 'RESOURCE_DOES_NOT_EXIST',
          message: `Warehouse ${body.warehouse_id} does not exist.`,
        });
      }
      // :p1 is the parameter named p1: its value goes to $1.
      const params: Array<string | null> = [];
      for (const parameter of body.parameters ?? []) params[Number(parameter.name.slice(1)) - 1] = parameter.value ?? null;
      const statement: Statement = {
        id: crypto.randomUUID(),
        state: 'PENDING',
        sql: body.statement,
        params,
        rowLimit: body.row_limit,
        pollsLeft: scenario.pendingPolls,
        never: scenario.never,
        chunkSize: scenario.chunkSize,
        chunkChain: scenario.chunkChain,
      };
      statements.push(statement);
      byId.set(statement.id, statement);
      // The submit waits as wait_timeout says; a statement that has not finished by then is answered as it stands.
      if (!statement.never && statement.pollsLeft === 0) await execute(statement);
      return sendJson(response, 200, answerOf(statement));
    }
    const match = /^\/api\/2\.0\/sql\/statements\/([^/]+)(\/cancel|\/result\/chunks\/(\d+))?$/.exec(request.path);
    const statement = match ? byId.get(match[1]!) : undefined;
    if (!match || !statement) return sendJson(response, 404, { error_code: 'NOT_FOUND', message: 'The statement was not found.' });
    if (request.method === 'POST' && match[2] === '/cancel') {
      if (statement.state === 'PENDING' || statement.state === 'RUNNING') statement.state = 'CANCELED';
      return sendJson(response, 200, {});
    }
    if (request.method === 'GET' && match[3] !== undefined) {
      if (scenario.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, scenario.chunkDelayMs));
      return sendJson(response, 200, chunkOf(statement, Number(match[3])));
    }
    if (request.method === 'GET' && match[2] === undefined) {
      const refusal = scenario.pollRefusals.shift();
      if (refusal) return sendJson(response, refusal.status, refusal.body);
      await advance(statement);
      return sendJson(response, 200, answerOf(statement));
    }
    return sendJson(response, 404, { error_code: 'ENDPOINT_NOT_FOUND', message: 'No API found.' });
  }

  warehouse.server = await startLocalServer(answer);
  return warehouse;
}
