import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createSecrets } from '../../server/auth/secrets.ts';
import { sealSecrets } from '../../server/connections/records.ts';
import { createConnectorRegistry, serverConnectorContext } from '../../server/connectors/index.ts';
import { readConfig } from '../../server/config.ts';
import { migrateDatabase, openDatabase } from '../../server/db/client.ts';
import { connections, jobRuns, sourceDestinations, workflows } from '../../server/db/schema.ts';
import { createTaskExecutors } from '../../server/jobs/tasks/index.ts';
import { createMailer } from '../../server/mail/mailer.ts';
import { provisionCompany } from '../../server/tenancy/provision.ts';

/**
 * The copy task against PostgreSQL's own tools: 1,000,000 rows from one table of a PostgreSQL
 * database into another, by `psql -c "COPY … TO STDOUT" | psql -c "COPY … FROM STDIN"` and by the
 * copy executor (a `copy` task, create mode, batches of 10,000, as a workflow run calls it),
 * each 3 times in the same run (the median is reported). For reference, the task in append mode
 * (a commit per batch); in merge mode by id, into an empty table and again over a table that
 * already holds every row (each one conflicts and is updated: a merge copy's steady state); and
 * the same batches written by multi-row INSERTs (`insert … select * from unnest($1::bigint[], …)`),
 * the fastest way in without COPY. Runs under `node --import tsx`:
 *
 *   node --import tsx tests/bench/copy.mjs       (BENCH_DATABASE_URL, default the local PostgreSQL)
 */

export const COPY_ROWS = 1_000_000;
const REPEATS = 3;
const BATCH = 10_000;
/** The share of psql's throughput the executor must reach. */
const TARGET_RATIO = 0.7;

const COLUMNS = 'id bigint not null, customer text not null, amount numeric(12,2), placed_at timestamptz not null, note text, paid boolean';

function connectionSettings(databaseUrl) {
  const url = new URL(databaseUrl);
  return {
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

/** About 100 bytes a row: a key, a name, an amount, a time, 64 characters of text, a flag. */
async function createSource(client, table) {
  await client.query(`create table ${table} (${COLUMNS})`);
  await client.query(`
    insert into ${table}
    select g, 'customer ' || (g % 5000), (g % 100000) / 100.0, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 second',
           md5(g::text) || md5((g * 7)::text), g % 3 = 0
    from generate_series(1, ${COPY_ROWS}) g`);
  await client.query(`vacuum analyze ${table}`);
}

function psqlArgs(databaseUrl, command) {
  const url = new URL(databaseUrl);
  return [
    '-X',
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username),
    '-d',
    decodeURIComponent(url.pathname.slice(1)),
    '-c',
    command,
  ];
}

/** `psql -c "COPY source TO STDOUT" | psql -c "COPY target FROM STDIN"`, as a shell pipes them. */
function psqlPipe(databaseUrl, source, target) {
  const env = {
    ...process.env,
    ...(new URL(databaseUrl).password ? { PGPASSWORD: decodeURIComponent(new URL(databaseUrl).password) } : {}),
  };
  return new Promise((resolve, reject) => {
    const reader = spawn('psql', psqlArgs(databaseUrl, `COPY ${source} TO STDOUT`), { env, stdio: ['ignore', 'pipe', 'inherit'] });
    const writer = spawn('psql', psqlArgs(databaseUrl, `COPY ${target} FROM STDIN`), { env, stdio: ['pipe', 'ignore', 'inherit'] });
    reader.stdout.pipe(writer.stdin);
    let ended = 0;
    const exited = (name) => (code) => {
      if (code !== 0) reject(new Error(`${name} psql exited with ${code}`));
      else if (++ended === 2) resolve();
    };
    reader.on('exit', exited('the reading'));
    writer.on('exit', exited('the writing'));
    reader.on('error', reject);
    writer.on('error', reject);
  });
}

/** The batches read by a cursor and written by `insert … select * from unnest(…)`, one statement a batch. */
async function unnestInserts(databaseUrl, source, target) {
  const reader = new pg.Client({ connectionString: databaseUrl });
  const writer = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([reader.connect(), writer.connect()]);
  const raw = { getTypeParser: () => (value) => value };
  try {
    await reader.query('begin read only');
    await reader.query(`declare rows no scroll cursor for select * from ${source}`);
    for (;;) {
      const { rows } = await reader.query({ text: `fetch forward ${BATCH} from rows`, rowMode: 'array', types: raw });
      if (rows.length === 0) break;
      const columns = rows[0].map((_, index) => rows.map((row) => row[index]));
      await writer.query(
        `insert into ${target} select * from unnest($1::bigint[], $2::text[], $3::numeric[], $4::timestamptz[], $5::text[], $6::boolean[])`,
        columns,
      );
    }
    await reader.query('commit');
  } finally {
    await Promise.all([reader.end(), writer.end()]);
  }
}

/** An app database of its own in memory, with a company, the two connections, their pair and a workflow: what the executor reads when it runs. */
async function copyExecutorFor(databaseUrl) {
  const database = await openDatabase({});
  await migrateDatabase(database);
  const secrets = createSecrets(crypto.randomBytes(32).toString('base64url'));
  const company = await provisionCompany(database.db, {
    name: 'Bench',
    hostname: 'bench-copy',
    admin: {
      email: 'admin@bench-copy.test',
      password: crypto.randomBytes(12).toString('base64url') + 'Aa1!',
      firstName: 'Bench',
      lastName: 'Admin',
    },
  });
  const { settings, secrets: plainSecrets } = connectionSettings(databaseUrl);
  const made = await database.db
    .insert(connections)
    .values(
      ['Operational', 'Reporting'].map((name) => ({
        companyId: company.companyId,
        name,
        type: 'postgresql',
        isSource: true,
        isDestination: true,
        settings,
        secretsEnc: sealSecrets(secrets, plainSecrets),
      })),
    )
    .returning({ id: connections.id });
  const [pair] = await database.db
    .insert(sourceDestinations)
    .values({ companyId: company.companyId, name: 'Bench pair', sourceId: made[0].id, destinationId: made[1].id })
    .returning({ id: sourceDestinations.id });
  const [workflow] = await database.db
    .insert(workflows)
    .values({ companyId: company.companyId, name: 'Bench copy', pairId: pair.id })
    .returning({ id: workflows.id });
  const [run] = await database.db
    .insert(jobRuns)
    .values({ companyId: company.companyId, workflowId: workflow.id, trigger: 'manual', status: 'running' })
    .returning({ id: jobRuns.id });
  // The bench's PostgreSQL is on this machine: the operator's list lets the company reach it.
  const config = readConfig({
    DATA_DIR: process.cwd(),
    ALLOW_COMPANY_SIGNUP: 'false',
    CONNECTION_ALLOWED_HOSTS: `${settings.host}:${settings.port}`,
  });
  const connectors = createConnectorRegistry({ ...serverConnectorContext(config, database.db), dataDir: undefined });
  const executors = createTaskExecutors({
    db: database.db,
    secrets,
    connectors,
    mailer: createMailer(database.db, { from: 'bench@localhost' }),
    config: { dataDir: process.cwd(), publicUrl: undefined, port: 8080 },
  });
  const context = {
    companyId: company.companyId,
    runId: run.id,
    workflowId: workflow.id,
    workflowName: 'Bench copy',
    userId: null,
    signal: new AbortController().signal,
    log: async () => {},
    progress: async () => {},
    setGitCommit: async () => {},
  };
  return {
    /** `keys` only with mode 'merge': the columns rows are matched by. */
    async copy(source, target, mode = 'create', keys = undefined) {
      const to = keys ? { table: target, mode, keys } : { table: target, mode };
      const outcome = await executors.copy(
        { id: 'copy', name: 'Copy', type: 'copy', from: { table: source }, to, batchSize: BATCH },
        context,
      );
      if (outcome.rowsWritten !== COPY_ROWS) throw new Error(`the copy wrote ${outcome.rowsWritten} rows, not ${COPY_ROWS}`);
    },
    close: () => database.close(),
  };
}

/**
 * Times each way REPEATS times, taking turns (one run of each, then again), so that whatever else
 * the machine does weighs on all of them alike; `prepare` runs before each timed run and
 * `verify`, where a way has one, after it, both untimed.
 */
async function timeInTurns(ways) {
  const runs = ways.map(() => []);
  for (let i = 0; i < REPEATS; i += 1) {
    for (const [index, way] of ways.entries()) {
      await way.prepare();
      const started = performance.now();
      await way.work();
      runs[index].push(performance.now() - started);
      await way.verify?.();
    }
  }
  return runs.map((times) => ({ median: [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)], runs: times }));
}

const rate = (ms) => Math.round(COPY_ROWS / (ms / 1000));
const perSecond = (ms) => `${rate(ms).toLocaleString('en-US')} rows/s`;
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** Makes the tables in a schema of its own, times the six ways, drops the schema, and answers the section of docs/benchmarks.md. */
export async function measureCopy({ databaseUrl }) {
  const schema = `bench_copy_${crypto.randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const executor = await copyExecutorFor(databaseUrl);
  try {
    await client.query(`create schema ${schema}`);
    const source = `${schema}.orders`;
    await createSource(client, source);
    const [{ version }] = (await client.query(`select current_setting('server_version') as version`)).rows;
    const [{ size }] = (await client.query(`select pg_size_pretty(pg_table_size($1)) as size`, [source])).rows;
    const fresh = (table) => async () => {
      await client.query(`drop table if exists ${table}`);
      await client.query(`create table ${table} (${COLUMNS})`);
    };
    const counted = async (table) => {
      const { rows } = await client.query(`select count(*)::int as n from ${table}`);
      if (rows[0].n !== COPY_ROWS) throw new Error(`${table} holds ${rows[0].n} rows, not ${COPY_ROWS}`);
    };
    const keyed = (table) => async () => {
      await client.query(`drop table if exists ${table}`);
      await client.query(`create table ${table} (${COLUMNS}, primary key (id))`);
    };
    /** The transaction that wrote the rows a merge runs over: after it, no row may still be that transaction's. */
    let filledBy;
    const merged = `${schema}.by_merge_again`;
    const filledAsByAMerge = async () => {
      await keyed(merged)();
      await client.query(`insert into ${merged} select * from ${source}`);
      await client.query(`vacuum analyze ${merged}`);
      [{ filledBy }] = (await client.query(`select xmin::text as "filledBy" from ${merged} limit 1`)).rows;
    };
    const everyRowUpdated = async () => {
      const [{ n, stale }] = (
        await client.query(`select count(*)::int as n, (count(*) filter (where xmin::text = $1))::int as stale from ${merged}`, [filledBy])
      ).rows;
      if (n !== COPY_ROWS) throw new Error(`the merge run over the same rows left ${n} rows in ${merged}, not ${COPY_ROWS}`);
      if (stale !== 0) throw new Error(`the merge run over the same rows left ${stale} rows of ${merged} as they were, not updated`);
    };
    // Warm-up: the source read once, so that the first timed copy is not the only one reading from disk.
    await client.query(`select count(*) from ${source}`);

    const [psql, task, appended, mergedEmpty, mergedAgain, inserts] = await timeInTurns([
      { prepare: fresh(`${schema}.by_psql`), work: () => psqlPipe(databaseUrl, source, `${schema}.by_psql`) },
      { prepare: () => client.query(`drop table if exists ${schema}.by_task`), work: () => executor.copy(source, `${schema}.by_task`) },
      { prepare: fresh(`${schema}.by_append`), work: () => executor.copy(source, `${schema}.by_append`, 'append') },
      { prepare: keyed(`${schema}.by_merge`), work: () => executor.copy(source, `${schema}.by_merge`, 'merge', ['id']) },
      { prepare: filledAsByAMerge, work: () => executor.copy(source, merged, 'merge', ['id']), verify: everyRowUpdated },
      { prepare: fresh(`${schema}.by_insert`), work: () => unnestInserts(databaseUrl, source, `${schema}.by_insert`) },
    ]);
    for (const table of ['by_psql', 'by_task', 'by_append', 'by_merge', 'by_merge_again', 'by_insert']) await counted(`${schema}.${table}`);

    const ratio = rate(task.median) / rate(psql.median);
    const against = (timed) => `${(rate(timed.median) / rate(psql.median)).toFixed(2)}×`;
    const row = (what, timed, extra) =>
      `| ${what} | ${seconds(timed.median)} (${timed.runs.map(seconds).join(', ')}) | ${perSecond(timed.median)} | ${extra} |`;
    return [
      '## Copying a table between PostgreSQL databases',
      '',
      'Command: `npm run bench` (`BENCH_ONLY=copy npm run bench` for this part alone; tests/bench/copy.mjs, on `BENCH_DATABASE_URL`, default the local PostgreSQL). ' +
        `One table of ${COPY_ROWS.toLocaleString('en-US')} rows (bigint, text, numeric(12,2), timestamptz, 64 characters of text, boolean; ${size}) in a schema of its own (dropped afterwards), ` +
        'copied into a table of the same database six ways, taking turns, each 3 times in the same run (the median first): ' +
        '`psql -c "COPY … TO STDOUT" | psql -c "COPY … FROM STDIN"` into an empty table; a `copy` task in create mode with batches of 10,000, run by the copy executor as a workflow run calls it ' +
        "(it reads `COPY (…) TO STDOUT` and writes each batch with `COPY … FROM STDIN`, both through pg's custom-query interface as pg-copy-streams is not a dependency, the source reading ahead while a batch is written, into a table of its own that takes the target's place at the end); " +
        'for reference, the same task in append mode into an empty table (a commit, so a flush of the write-ahead log, per batch); ' +
        'the same task in merge mode by id, which writes the batches by COPY into a table of its own, checks that no key is missing or repeated, ' +
        'then moves them into the target in one statement, `insert … select … on conflict (id) do update set …` (all in one transaction), ' +
        `into an empty table with a primary key on id, and again over a table that already holds the same ${COPY_ROWS.toLocaleString('en-US')} rows ` +
        '(filled and vacuumed beforehand, untimed), where every row conflicts and is updated, as in a merge copy run after run; the bench checks afterwards ' +
        `that the table still holds exactly ${COPY_ROWS.toLocaleString('en-US')} rows, none of them left as it was ` +
        "(the two merge rows have no target: most of their time is PostgreSQL's own `insert … on conflict`, a look-up in the key's index for every row " +
        'and, over rows already there, a new version of each row and of its index entry, which a COPY into a bare table never pays); ' +
        'and the same batches read by a cursor and written by `insert … select * from unnest($1::bigint[], …)`, the fastest way in without COPY. ' +
        `Target: the copy task at ${TARGET_RATIO}× psql's throughput or better.`,
      '',
      '| copy | time (runs) | throughput | against psql |',
      '|---|---|---|---|',
      row('`psql … COPY TO STDOUT \\| psql … COPY FROM STDIN`', psql, '1×'),
      row(
        'copy task, create mode (`COPY` out and in, one transaction)',
        task,
        `${ratio.toFixed(2)}× — target ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? 'met' : '**missed**'}`,
      ),
      row('copy task, append mode (a transaction per batch; reference)', appended, against(appended)),
      row('copy task, merge mode by id into an empty table (reference)', mergedEmpty, against(mergedEmpty)),
      row(
        `copy task, merge mode re-run over the same ${COPY_ROWS.toLocaleString('en-US')} rows (every row updated; reference)`,
        mergedAgain,
        against(mergedAgain),
      ),
      row('cursor + `insert … unnest(…)` (reference)', inserts, against(inserts)),
      '',
      `PostgreSQL ${version}, server and both clients on the same machine.`,
      '',
    ];
  } finally {
    await executor.close();
    await client.query(`drop schema if exists ${schema} cascade`).catch(() => {});
    await client.end();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const lines = await measureCopy({ databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' });
  console.log(lines.join('\n'));
}
