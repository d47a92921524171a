import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { openPostgresConnector } from '../../server/connectors/postgresql/index.ts';
import { evaluateRules } from '../../server/quality/evaluate.ts';
import { createReach } from '../../server/reach/reach.ts';

/**
 * The data-quality engine at scale: eight rules over a 10,000,000-row PostgreSQL table, against
 * the time PostgreSQL takes to count the same rows. Both are timed in the same run, on the same
 * warmed table, each 3 times (the median is reported). Runs under `node --import tsx`, which
 * lets it use the engine's TypeScript as it is:
 *
 *   node --import tsx tests/bench/quality.mjs       (BENCH_DATABASE_URL, default the local PostgreSQL)
 */

export const QUALITY_ROWS = 10_000_000;
const REPEATS = 3;
/** Rows per insert: ten statements rather than one ten-million-row transaction. */
const INSERT_BATCH = 1_000_000;
/** The ratio the rules may take against the count. */
const TARGET_RATIO = 1.5;

const STATUSES = ['new', 'paid', 'shipped', 'cancelled'];

/** One rule of each kind the table's columns fit; all of them pass, so the run is the aggregate alone. */
function benchRules() {
  const rule = (functionName, columnName, params) => ({
    id: crypto.randomUUID(),
    name: functionName,
    functionName,
    columnName,
    params,
    severity: 'fail',
    tolerance: 0,
  });
  return [
    rule('not_null', 'email', {}),
    rule('unique', 'id', {}),
    rule('value_between', 'amount', { min: 0, max: 10_000 }),
    rule('regex_match', 'email', { pattern: '^[a-z0-9.]+@[a-z0-9.]+$' }),
    rule('in_set', 'status', { values: STATUSES }),
    rule('length_between', 'email', { min: 5, max: 80 }),
    rule('freshness', 'updated_at', { maxAgeMinutes: 24 * 60 }),
    rule('row_count_between', null, { min: 1 }),
  ];
}

function connectionConfigOf(databaseUrl) {
  const url = new URL(databaseUrl);
  return {
    type: 'postgresql',
    settings: {
      host: url.hostname,
      port: Number(url.port || 5432),
      database: decodeURIComponent(url.pathname.slice(1)),
      user: decodeURIComponent(url.username),
      ssl: 'disable',
    },
    secrets: url.password ? { password: decodeURIComponent(url.password) } : {},
  };
}

async function createTable(client, table) {
  await client.query(
    `create table ${table} (id bigint not null, email text, status text not null, amount numeric(12,2), updated_at timestamptz)`,
  );
  const statuses = `array[${STATUSES.map((status) => `'${status}'`).join(', ')}]`;
  for (let start = 1; start <= QUALITY_ROWS; start += INSERT_BATCH) {
    const end = Math.min(QUALITY_ROWS, start + INSERT_BATCH - 1);
    await client.query(`
      insert into ${table}
      select g, 'user' || g || '@example.com', (${statuses})[1 + g % 4], (g % 1000000) / 100.0, now() - make_interval(secs => g % 86400)
      from generate_series(${start}, ${end}) g`);
  }
  // A settled table, as autovacuum leaves one: statistics taken and pages marked all-visible.
  await client.query(`vacuum analyze ${table}`);
}

async function timeRuns(work) {
  const runs = [];
  for (let i = 0; i < REPEATS; i += 1) {
    const started = performance.now();
    await work();
    runs.push(performance.now() - started);
  }
  return { median: [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)], runs };
}

const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;

/**
 * Creates the table in a schema of its own, times the count and the rules, drops the schema, and
 * answers the section of docs/benchmarks.md.
 */
export async function measureQuality({ databaseUrl }) {
  const schema = `bench_quality_${crypto.randomBytes(4).toString('hex')}`;
  const table = `${schema}.events`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const source = openPostgresConnector(connectionConfigOf(databaseUrl), {
    // The bench's own PostgreSQL, on this machine: reached as a single-company server reaches it.
    reach: createReach({ allowed: [], denied: [], manyCompanies: async () => false }),
  });
  try {
    await client.query(`create schema ${schema}`);
    await createTable(client, table);
    const [{ version }] = (await client.query(`select current_setting('server_version') as version`)).rows;
    const count = async () => {
      const { rows } = await client.query(`select count(*) as n from ${table}`);
      if (Number(rows[0].n) !== QUALITY_ROWS) throw new Error(`the table holds ${rows[0].n} rows, not ${QUALITY_ROWS}`);
    };
    const rules = benchRules();
    const evaluate = async () => {
      const outcome = await evaluateRules(source, { endpoint: table, rules, columns: [] });
      if (outcome.status !== 'passed')
        throw new Error(
          `the rules did not all pass: ${outcome.error ?? outcome.results.map((result) => `${result.ruleName}: ${result.message}`).join('; ')}`,
        );
    };
    // Warm-up: the table read once into memory, so the first timed count is not the only cold one.
    await count();
    const counted = await timeRuns(count);
    const evaluated = await timeRuns(evaluate);
    const ratio = evaluated.median / counted.median;
    return [
      '## Data-quality rules at scale',
      '',
      'Command: `npm run bench` (`BENCH_ONLY=quality npm run bench` for this part alone; tests/bench/quality.mjs, on `BENCH_DATABASE_URL`, default the local PostgreSQL). ' +
        `One table of ${QUALITY_ROWS.toLocaleString('en-US')} rows in a schema of its own (dropped afterwards), vacuumed and analysed, read once before timing. ` +
        'Eight rules — not_null, unique, value_between, regex_match, in_set, length_between, freshness, row_count_between — all passing, ' +
        `so \`evaluateRules\` reads the table with its one aggregate statement and nothing else. Each figure is the median of ${REPEATS} runs. ` +
        `Target: the rules within ${TARGET_RATIO}× of the count.`,
      '',
      '| database | rows | `select count(*)` | 8 rules (`evaluateRules`) | ratio | target |',
      '|---|---|---|---|---|---|',
      `| PostgreSQL ${version} | ${QUALITY_ROWS.toLocaleString('en-US')} | ${ms(counted.median)} (${counted.runs.map(ms).join(', ')}) | ${ms(evaluated.median)} (${evaluated.runs.map(ms).join(', ')}) | ${ratio.toFixed(1)}× | ${ratio <= TARGET_RATIO ? 'met' : `**missed** (${TARGET_RATIO}×)`} |`,
      '',
    ];
  } finally {
    await source.close();
    await client.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const lines = await measureQuality({ databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' });
  console.log(lines.join('\n'));
}
