import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabricksConnector } from '../../../server/connectors/databricks';
import { databricksValue, isSingleQuery, MAX_RESULT_CHUNKS } from '../../../server/connectors/databricks-sql';
import { openPostgresConnector } from '../../../server/connectors/postgresql';
import type { ConnectionConfig, TableSource } from '../../../server/connectors/types';
import { COLUMN_CHECKS } from '../../../server/quality/checks';
import { buildStatement, javaPattern, QUALITY_DIALECTS } from '../../../server/quality/dialects';
import { evaluateRules } from '../../../server/quality/evaluate';
import type { ResultRow, RuleToRun } from '../../../server/quality/rules';
import { defaultScenario, startFakeWarehouse, WAREHOUSE_ID, WAREHOUSE_TOKEN, type FakeWarehouse } from './databricks-warehouse';
import { configFromUrl, onPostgres, POSTGRES_URL, randomName, skipPostgres } from './db-helpers';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP, testReach } from './test-context';

/**
 * Queries on a Databricks SQL warehouse through the Statement Execution API 2.0, against a fake
 * warehouse (databricks-warehouse.ts) that answers as the API reference describes and runs each
 * statement on the local PostgreSQL: submitted, polled, read in chunks, cancelled at the time
 * limit; and the data-quality rules run through it giving what they give run on PostgreSQL itself.
 */

/** The fake's statements run in the database `test`: its name is the catalog of a table's three-part name. */
const CATALOG = new URL(POSTGRES_URL).pathname.slice(1);

let schema: string;
let warehouse: FakeWarehouse;

const config = (settings: Record<string, unknown> = {}): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'databricks',
  settings: { host: warehouse.server.url, warehouseId: WAREHOUSE_ID, ...settings },
  secrets: { token: WAREHOUSE_TOKEN },
});

/** Retries with short waits, so that a test of backoff takes a fraction of a second. */
const fast = { http: { ...TEST_HTTP, retryBaseDelayMs: 50 } };
const open = (settings: Record<string, unknown> = {}) => openDatabricksConnector(config(settings), fast);
const READ = { timeoutMs: 10_000, readOnly: true };

const requestsTo = (path: RegExp, method?: string) =>
  warehouse.server.requests.filter((request) => path.test(request.path) && (!method || request.method === method));

/** The result chunks asked for of a statement, by index, in the order asked. */
const chunksAsked = (id: string) =>
  requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${id}/result/chunks/\\d+$`)).map((request) => Number(request.path.split('/').pop()));

beforeAll(async () => {
  if (skipPostgres) return;
  schema = randomName('dbx');
  await onPostgres(async (client) => {
    await client.query(`create schema ${schema}`);
    // Databricks' unix_micros, which PostgreSQL lacks: the one function the fake adds rather than translates.
    await client.query(
      `create function ${schema}.unix_micros(t timestamptz) returns bigint language sql immutable as $$ select (extract(epoch from t) * 1000000)::bigint $$`,
    );
    await client.query(
      `create table ${schema}.people (id integer, email text, status text, amount double precision, seen_at timestamptz, active boolean)`,
    );
    await client.query(`insert into ${schema}.people values
      (1, 'ana@example.com', 'active', 10, now() - interval '3 hours', true),
      (2, 'bo@example.com', 'active', 250, now() - interval '5 hours', true),
      (3, null, 'paused', 40, now() - interval '4 hours', false),
      (4, 'ana@example.com', 'gone', -5, now() - interval '6 hours', true),
      (5, 'not-an-email', 'active', 70, now() - interval '7 hours', null)`);
  });
  warehouse = await startFakeWarehouse(schema);
});

afterAll(async () => {
  await warehouse?.close();
  if (schema) await onPostgres((client) => client.query(`drop schema if exists ${schema} cascade`));
});

beforeEach(() => {
  if (warehouse) warehouse.scenario = defaultScenario();
});

const table = () => `\`${CATALOG}\`.\`${schema}\`.\`people\``;

describe.skipIf(skipPostgres)('a query on the warehouse', () => {
  it('answers at once when the statement finishes within the submit, typed by the manifest', async () => {
    const rows = await open().query(
      `select id, email, amount, active, count(*) over () as n from ${table()} where id <= :p1 order by id`,
      [2],
      READ,
    );
    expect(rows).toEqual([
      { id: 1, email: 'ana@example.com', amount: 10, active: true, n: 2 },
      { id: 2, email: 'bo@example.com', amount: 250, active: true, n: 2 },
    ]);
    const submit = JSON.parse(
      requestsTo(/^\/api\/2\.0\/sql\/statements$/)
        .at(-1)!
        .body.toString('utf8'),
    );
    expect(submit).toMatchObject({
      warehouse_id: WAREHOUSE_ID,
      parameters: [{ name: 'p1', value: '2' }],
      wait_timeout: '10s',
      on_wait_timeout: 'CONTINUE',
      disposition: 'INLINE',
      format: 'JSON_ARRAY',
    });
    expect(requestsTo(/^\/api\/2\.0\/sql\/statements\/[^/]+$/, 'GET')).toHaveLength(0);
  });

  it('polls a statement the warehouse keeps pending, waiting longer each time, until it succeeds', async () => {
    warehouse.scenario.pendingPolls = 2;
    const started = performance.now();
    const rows = await open().query(`select count(*) as n from ${table()}`, [], READ);
    expect(rows).toEqual([{ n: 5 }]);
    const id = warehouse.statements.at(-1)!.id;
    const polls = requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${id}$`), 'GET');
    // PENDING at the submit, PENDING twice more, then SUCCEEDED: three polls, 200 + 400 + 800 ms apart.
    expect(polls).toHaveLength(3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_300);
  });

  it("fails in the warehouse's own words, a statement the rule made as 'invalid' and a missing table as 'not_found'", async () => {
    const refused = await failure(open().query(`select nope from ${table()}`, [], READ));
    expect(refused.message).toBe('Databricks: column "nope" does not exist');
    expect(refused.kind).toBe('invalid');
    const missing = await failure(open().query(`select * from \`${CATALOG}\`.\`${schema}\`.\`gone\``, [], READ));
    expect(missing.message).toBe(`Databricks: relation "${schema}.gone" does not exist`);
    expect(missing.kind).toBe('not_found');
  });

  it('cancels a statement still running at the time limit, and says it timed out', async () => {
    warehouse.scenario.never = true;
    const started = performance.now();
    const error = await failure(open().query(`select count(*) from ${table()}`, [], { timeoutMs: 800, readOnly: true }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('The query did not finish within 0.8 s; it was cancelled on the warehouse');
    expect(performance.now() - started).toBeLessThan(3_000);
    const statement = warehouse.statements.at(-1)!;
    expect(requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${statement.id}/cancel$`), 'POST')).toHaveLength(1);
    expect(statement.state).toBe('CANCELED');
    // Under 5 s the API takes only 0 s: the submit answers at once rather than outwait the limit.
    expect(
      JSON.parse(
        requestsTo(/^\/api\/2\.0\/sql\/statements$/)
          .at(-1)!
          .body.toString('utf8'),
      ).wait_timeout,
    ).toBe('0s');
  });

  it('reads a result of several chunks, following next_chunk_index, and no further than the rows wanted', async () => {
    warehouse.scenario.chunkSize = 2;
    const rows = await open().query(`select id from ${table()} order by id`, [], READ);
    expect(rows.map((row) => row.id)).toEqual([1, 2, 3, 4, 5]);
    const id = warehouse.statements.at(-1)!.id;
    expect(
      requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${id}/result/chunks/\\d+$`)).map((request) => request.path.split('/').pop()),
    ).toEqual(['1', '2']);

    const limited = await open().query(`select id from ${table()} order by id`, [], { ...READ, maxRows: 3 });
    expect(limited.map((row) => row.id)).toEqual([1, 2, 3]);
    const second = warehouse.statements.at(-1)!;
    expect(second.rowLimit).toBe(3);
    expect(requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${second.id}/result/chunks/\\d+$`))).toHaveLength(1);
  });

  it('refuses a result whose chunks never end once it is longer than the chunks a query reads, rather than answer part of it', async () => {
    warehouse.scenario.chunkSize = 2;
    warehouse.scenario.chunkChain = 'endless';
    const started = performance.now();
    const error = await failure(open().query(`select id from ${table()} order by id`, [], READ));
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('Databricks: the result is longer than 1,000 chunks, more than one query may read');
    // Chunk 0 came with the statement; chunks 1 to 999 were asked for, one by one, and no more.
    const asked = chunksAsked(warehouse.statements.at(-1)!.id);
    expect(asked).toHaveLength(MAX_RESULT_CHUNKS - 1);
    expect(asked.at(-1)).toBe(MAX_RESULT_CHUNKS - 1);
    expect(performance.now() - started).toBeLessThan(READ.timeoutMs);

    // With the rows wanted counted, the same chain is read up to them, as ever.
    const limited = await open().query(`select id from ${table()} order by id`, [], { ...READ, maxRows: 3 });
    expect(limited.map((row) => row.id)).toEqual([1, 2, 3]);
    expect(chunksAsked(warehouse.statements.at(-1)!.id)).toEqual([1]);
  });

  it("stops reading a result whose chunks never end at the query's time limit, and says so", async () => {
    warehouse.scenario.chunkSize = 2;
    warehouse.scenario.chunkChain = 'endless';
    warehouse.scenario.chunkDelayMs = 100;
    const started = performance.now();
    const error = await failure(open().query(`select id from ${table()} order by id`, [], { timeoutMs: 800, readOnly: true }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe("The query's result was not read in full within 0.8 s");
    expect(performance.now() - started).toBeLessThan(3_000);
    const asked = chunksAsked(warehouse.statements.at(-1)!.id);
    expect(asked.length).toBeGreaterThan(1);
    expect(asked.length).toBeLessThan(10);
  });

  it('refuses a result chunk that names itself as the next one, rather than ask for it again', async () => {
    warehouse.scenario.chunkSize = 2;
    warehouse.scenario.chunkChain = 'repeated';
    const error = await failure(open().query(`select id from ${table()} order by id`, [], READ));
    expect(error.kind).toBe('failed');
    expect(error.message).toBe('Databricks: result chunk 1 named chunk 1 to follow it, which does not move the result forward');
    expect(chunksAsked(warehouse.statements.at(-1)!.id)).toEqual([1]);
  });

  it('sends the submit again after a 429, and a poll again after a 503, with backoff', async () => {
    warehouse.scenario.submitRefusals = [{ status: 429, body: { error_code: 'REQUEST_LIMIT_EXCEEDED', message: 'Too many requests' } }];
    warehouse.scenario.pendingPolls = 1;
    warehouse.scenario.pollRefusals = [{ status: 503, body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'Unavailable' } }];
    const before = warehouse.statements.length;
    const submitsBefore = requestsTo(/^\/api\/2\.0\/sql\/statements$/).length;
    const rows = await open().query(`select count(*) as n from ${table()} where status = :p1`, ['active'], READ);
    expect(rows).toEqual([{ n: 3 }]);
    // Two submits, one statement: the 429 came before the warehouse took anything.
    expect(requestsTo(/^\/api\/2\.0\/sql\/statements$/).length - submitsBefore).toBe(2);
    expect(warehouse.statements.length - before).toBe(1);
    const id = warehouse.statements.at(-1)!.id;
    // The 503, its retry (PENDING) after a wait, then SUCCEEDED.
    expect(requestsTo(new RegExp(`^/api/2\\.0/sql/statements/${id}$`), 'GET')).toHaveLength(3);
  });

  it('does not send the submit again after a 503: the warehouse may have started it', async () => {
    warehouse.scenario.submitRefusals = [
      { status: 503, body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'Unavailable' } },
      { status: 503, body: { error_code: 'TEMPORARILY_UNAVAILABLE', message: 'Unavailable' } },
    ];
    const submitsBefore = requestsTo(/^\/api\/2\.0\/sql\/statements$/).length;
    const error = await failure(open().query(`select 1 as one`, [], READ));
    expect(error.message).toBe(
      'Databricks: Unavailable (TEMPORARILY_UNAVAILABLE) (HTTP 503); not sent again, as Databricks may have acted on it',
    );
    expect(requestsTo(/^\/api\/2\.0\/sql\/statements$/).length - submitsBefore).toBe(1);
  });

  it('sends nothing but one query', async () => {
    const submitsBefore = requestsTo(/^\/api\/2\.0\/sql\/statements$/).length;
    for (const sql of [`delete from ${table()}`, `select 1; drop table ${table()}`, `select 1 -- ; drop`, `select 1 /* x */`]) {
      const error = await failure(open().query(sql, [], READ));
      expect(error.message).toBe('Only one query (SELECT or WITH … SELECT) runs on a Databricks SQL warehouse');
    }
    expect(requestsTo(/^\/api\/2\.0\/sql\/statements$/).length).toBe(submitsBefore);
    expect(isSingleQuery("with x as (select ';' as s, `a;b` as c) select * from x")).toBe(true);
  });

  it('says a warehouse must be named before anything runs, yet still describes tables', async () => {
    const withoutWarehouse = open({ warehouseId: '' });
    const error = await failure(withoutWarehouse.query('select 1', [], READ));
    expect(error.message).toBe('Name a SQL warehouse on this connection to run checks on it');
    expect(withoutWarehouse.tableName('main.sales.orders')).toBe('`main`.`sales`.`orders`');
    expect(withoutWarehouse.quote('we`ird')).toBe('`we``ird`');
  });
});

describe('values of a JSON_ARRAY result', () => {
  it('reads numbers, booleans and nulls by the column type, and keeps dates and big numbers as text', () => {
    expect(databricksValue('42', 'INT')).toBe(42);
    expect(databricksValue('12.5', 'DOUBLE')).toBe(12.5);
    expect(databricksValue('9007199254740993', 'LONG')).toBe('9007199254740993');
    expect(databricksValue('120', 'LONG')).toBe(120);
    expect(databricksValue('10.25', 'DECIMAL')).toBe(10.25);
    expect(databricksValue('12345678901234567.89', 'DECIMAL')).toBe('12345678901234567.89');
    expect(databricksValue('false', 'BOOLEAN')).toBe(false);
    expect(databricksValue('2024-05-01T10:00:00.000Z', 'TIMESTAMP')).toBe('2024-05-01T10:00:00.000Z');
    expect(databricksValue(null, 'LONG')).toBeNull();
  });
});

const rule = (functionName: RuleToRun['functionName'], columnName: string | null, params: unknown = {}): RuleToRun => ({
  id: crypto.randomUUID(),
  name: `${functionName} ${columnName ?? ''}`.trim(),
  functionName,
  columnName,
  params,
  severity: 'fail',
  tolerance: 0,
});

/** A result as both sources must give it: all but the statement that measured it and the clock. */
const comparable = ({ query: _query, startedAt: _startedAt, endedAt: _endedAt, ...rest }: ResultRow) => rest;

describe.skipIf(skipPostgres)('data-quality rules on a Databricks connection', () => {
  const rules = [
    rule('not_null', 'email'),
    rule('unique', 'email'),
    rule('value_between', 'amount', { min: 0, max: 100 }),
    rule('regex_match', 'email', { pattern: '^[^@]+@[^@]+$' }),
    rule('in_set', 'status', { values: ['active', 'paused'] }),
    rule('row_count_between', null, { min: 1, max: 4 }),
    rule('freshness', 'seen_at', { maxAgeMinutes: 60 }),
    rule('freshness', 'seen_at', { maxAgeMinutes: 600 }),
    rule('length_between', 'status', { min: 5, max: 6 }),
  ];
  const columns = [
    { name: 'id', sensitivity: 'internal' },
    { name: 'email', sensitivity: 'pii' },
  ];

  it('gives the results the same rules give run on PostgreSQL itself', async () => {
    const postgres: TableSource = openPostgresConnector(configFromUrl('postgresql', POSTGRES_URL), { reach: testReach() });
    try {
      const direct = await evaluateRules(postgres, { endpoint: `${schema}.people`, rules, columns });
      const throughDatabricks = await evaluateRules(open(), { endpoint: `${CATALOG}.${schema}.people`, rules, columns });
      expect(throughDatabricks.status).toBe(direct.status);
      expect(throughDatabricks.results.map(comparable)).toEqual(direct.results.map(comparable));
      // Something failed and something passed: the comparison is of real verdicts, samples among them.
      expect(direct.results.map((result) => result.status)).toEqual([
        'failed',
        'failed',
        'failed',
        'failed',
        'failed',
        'failed',
        'failed',
        'passed',
        'failed',
      ]);
      expect(direct.results[2]!.sample.map((row) => row.id)).toEqual([2, 4]);
      // The statements that ran were Databricks SQL: backticks and :p markers.
      expect(throughDatabricks.results[2]!.query).toBe(
        `select count(*) as rows_scanned, count(*) - count(\`email\`) as r0, count(*) filter (where (\`amount\` < cast(0 as double) or \`amount\` > cast(100 as double))) as r2, ` +
          `count(*) filter (where not (cast(\`email\` as string) rlike '^[^@]+@[^@]+$')) as r3, count(*) filter (where \`status\` not in ('active', 'paused')) as r4, ` +
          `max(\`seen_at\`) as r6, (unix_micros(now()) - unix_micros(cast(max(\`seen_at\`) as timestamp))) / 1e6 as r6_age, ` +
          `max(\`seen_at\`) as r7, (unix_micros(now()) - unix_micros(cast(max(\`seen_at\`) as timestamp))) / 1e6 as r7_age, ` +
          `count(*) filter (where (char_length(cast(\`status\` as string)) < 5 or char_length(cast(\`status\` as string)) > 6)) as r8 from ${table()}`,
      );
    } finally {
      await postgres.close();
    }
  });

  it("makes a custom SQL rule that rule's error, without sending its query", async () => {
    const submitsBefore = requestsTo(/^\/api\/2\.0\/sql\/statements$/).length;
    const outcome = await evaluateRules(open(), {
      endpoint: `${CATALOG}.${schema}.people`,
      rules: [rule('custom_sql', null, { sql: `select * from ${table()} where amount < 0` })],
      columns,
    });
    expect(outcome.results[0]!.status).toBe('error');
    expect(outcome.results[0]!.message).toBe(
      'Custom SQL does not run on Databricks connections: its queries cannot be checked to read only; write the check as a built-in rule',
    );
    // Only the row count reached the warehouse.
    expect(warehouse.statements.at(-1)!.sql).toBe(`select count(*) as rows_scanned from ${table()}`);
    expect(requestsTo(/^\/api\/2\.0\/sql\/statements$/).length - submitsBefore).toBe(1);
  });

  it('ends the run with the words to name a SQL warehouse when the connection names none', async () => {
    const outcome = await evaluateRules(open({ warehouseId: '' }), {
      endpoint: `${CATALOG}.${schema}.people`,
      rules: [rule('not_null', 'email')],
      columns,
    });
    expect(outcome).toEqual({ status: 'error', error: 'Name a SQL warehouse on this connection to run checks on it', results: [] });
  });
});

describe('a rule’s pattern on Databricks', () => {
  it('reads POSIX classes as the Java classes rlike knows, and leaves the rest as written', () => {
    expect(javaPattern('^[[:alnum:]_]+@[[:alpha:]]+[.][a-z]{2,}$')).toBe('^[\\p{Alnum}_]+@[\\p{Alpha}]+[.][a-z]{2,}$');
    expect(javaPattern('[[:space:][:digit:]]')).toBe('[\\p{Space}\\p{Digit}]');
    expect(javaPattern('[[:nope:]]')).toBe('[[:nope:]]');
    expect(javaPattern('^a:b$')).toBe('^a:b$');
  });

  it('is what a regex_match rule sends to the warehouse, and shows', () => {
    const check = COLUMN_CHECKS.regex_match;
    const statement = buildStatement(QUALITY_DIALECTS.databricks, (value) =>
      check.countFailing({
        column: '`email`',
        table: '`main`.`sales`.`people`',
        params: { pattern: '^[[:alnum:]]+$' },
        dialect: QUALITY_DIALECTS.databricks,
        value,
      }),
    );
    expect(statement.params).toEqual(['^[\\p{Alnum}]+$']);
    expect(statement.shown).toBe("count(*) filter (where not (cast(`email` as string) rlike '^[\\\\p{Alnum}]+$'))");
  });
});
