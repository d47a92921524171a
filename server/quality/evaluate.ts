import { FUNCTION_TYPE_OF, PARAMS_OF, type QualityFunction, type QualityParams } from '../../common/schemas/quality';
import { ConnectorError, splitTableEndpoint, type QueryOptions, type TableSource } from '../connectors/types';
import { COLUMN_CHECKS, type CheckContext, type NewestCheck, type RowCheck } from './checks';
import { buildStatement, QUALITY_DIALECTS, type BuiltStatement, type QualityDialect } from './dialects';
import { ageInWords, expectedInWords, rowsInWords, toleranceInWords } from './wording';
import type { DictionaryColumn, ResultRow, ResultStatus, RuleToRun, RunOutcome } from './rules';
import { SAMPLE_ROWS, sampleOf } from './samples';
import { checkCompanySql } from '../sql/company-sql';

/**
 * Runs a table's data-quality rules against its source and answers one result per rule. It reads
 * the source only (every statement in a read-only transaction) and writes nothing anywhere: the
 * caller stores the outcome, in one go.
 *
 * All column rules, and row_count_between, are measured by one aggregate statement over the
 * table, but for rules whose measure would keep its plan on one core (a distinct count): each of
 * those has a statement of its own, run at the same time on another connection. Samples are read only for the rules that failed; custom SQL runs on its own, once. When the
 * aggregate is refused for something one rule asked (a pattern the source rejects, a bound it
 * cannot compare), each rule is measured on its own so the others still count; when the source
 * or the table is gone, the run as a whole is an error and keeps no result.
 */

/** The aggregate reads the whole table: it may take a while on a big one. */
export const AGGREGATE_TIME_LIMIT_MS = 10 * 60_000;
/** docs/api/tables.md: custom SQL runs read-only with a time limit of 60 s. */
export const CUSTOM_SQL_TIME_LIMIT_MS = 60_000;
export const SAMPLE_TIME_LIMIT_MS = 60_000;

export interface EvaluationInput {
  /** The table, as the connection names it (`schema.table`). */
  endpoint: string;
  rules: RuleToRun[];
  /** The table's dictionary: its `pii` columns are masked in samples. */
  columns: DictionaryColumn[];
  /** The clock of startedAt and endedAt. */
  now?: () => Date;
  /** How many failing rows each failed rule keeps (the company's `qualitySampleRows`); 20 when absent. */
  sampleRows?: number;
}

/** The run as a whole could not be measured: the source or the table is gone. */
class RunNotMeasured extends Error {}

/** Failures that say the source or the table is gone, rather than that one rule asked something wrong. */
const SOURCE_GONE = new Set<ConnectorError['kind']>(['unreachable', 'auth', 'not_found']);

type ColumnKind = keyof typeof COLUMN_CHECKS;

interface PreparedRule {
  rule: RuleToRun;
  /** Its place in the run: the aggregate's column `r<index>` is its measure. */
  index: number;
  params: unknown;
}

interface Run {
  source: TableSource;
  dialect: QualityDialect;
  /** The endpoint, as the connection names it (`schema.table`). */
  endpoint: string;
  table: string;
  columns: DictionaryColumn[];
  clock: () => Date;
  sampleRows: number;
}

const isColumnKind = (name: QualityFunction): name is ColumnKind => FUNCTION_TYPE_OF[name] === 'column';

const readOnly = (timeoutMs: number, maxRows?: number): QueryOptions => ({
  timeoutMs,
  readOnly: true,
  ...(maxRows === undefined ? {} : { maxRows }),
});

const asCount = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));

function sourceErrorOf(err: unknown): ConnectorError {
  return err instanceof ConnectorError ? err : new ConnectorError(err instanceof Error ? err.message : String(err), 'failed');
}

function statusOf(rule: RuleToRun, passed: boolean): ResultStatus {
  if (passed) return 'passed';
  return rule.severity === 'warn' ? 'warned' : 'failed';
}

function baseResult(rule: RuleToRun): Pick<ResultRow, 'ruleId' | 'ruleName' | 'functionName' | 'columnName' | 'severity'> {
  return { ruleId: rule.id, ruleName: rule.name, functionName: rule.functionName, columnName: rule.columnName, severity: rule.severity };
}

function errorResult(rule: RuleToRun, message: string, query: string, startedAt: Date, endedAt: Date): ResultRow {
  return {
    ...baseResult(rule),
    status: 'error',
    observed: null,
    rowsScanned: null,
    rowsFailed: null,
    failedShare: null,
    sample: [],
    query,
    message,
    startedAt,
    endedAt,
  };
}

/** A rule's params as PARAMS_OF reads them, or what is wrong with the rule as stored. */
function prepare(rule: RuleToRun, index: number): PreparedRule | { rule: RuleToRun; problem: string } {
  if (isColumnKind(rule.functionName) && !rule.columnName) return { rule, problem: `columnName: is required for ${rule.functionName}` };
  const parsed = PARAMS_OF[rule.functionName].safeParse(rule.params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { rule, problem: `params${issue?.path.length ? `.${issue.path.join('.')}` : ''}: ${issue?.message ?? 'are not valid'}` };
  }
  return { rule, index, params: parsed.data };
}

function contextOf(run: Run, prepared: PreparedRule, value: CheckContext<unknown>['value']): CheckContext<never> {
  return {
    column: run.source.quote(prepared.rule.columnName ?? ''),
    table: run.table,
    params: prepared.params as never,
    dialect: run.dialect,
    value,
  };
}

const checkOf = (prepared: PreparedRule) => COLUMN_CHECKS[prepared.rule.functionName as ColumnKind] as RowCheck<never> | NewestCheck;

/** The select-list entries measuring column rules: `<count of failing rows> as r3`, or `max(c) as r5, <its age> as r5_age`. */
function measuresOf(run: Run, rules: readonly PreparedRule[], value: CheckContext<unknown>['value']): string[] {
  return rules.flatMap((prepared) => {
    const check = checkOf(prepared);
    const context = contextOf(run, prepared, value);
    const alias = `r${prepared.index}`;
    if (check.judges === 'rows') return [`${check.countFailing(context)} as ${alias}`];
    const { newest, ageSeconds } = check.newest(context);
    return [`${newest} as ${alias}`, `${ageSeconds} as ${alias}_age`];
  });
}

function aggregateOf(run: Run, rules: readonly PreparedRule[]): BuiltStatement {
  return buildStatement(
    run.dialect,
    (value) => `select ${['count(*) as rows_scanned', ...measuresOf(run, rules, value)].join(', ')} from ${run.table}`,
  );
}

interface Measurement {
  rowsScanned: number;
  /** Per rule index: the row holding its measure and the statement that read it, or the source's refusal. */
  byRule: Map<
    number,
    { row: Record<string, unknown>; statement: BuiltStatement; provenBy?: string } | { error: string; statement: BuiltStatement }
  >;
  /** The statement that counted the rows. */
  countStatement: BuiltStatement;
  startedAt: Date;
  endedAt: Date;
}

/** Reads a statement on which the whole run depends: any failure ends the run. */
async function readOrEndRun(run: Run, statement: BuiltStatement, options: QueryOptions) {
  try {
    return await run.source.query(statement.sql, statement.params, options);
  } catch (err) {
    throw new RunNotMeasured(sourceErrorOf(err).message);
  }
}

/** Reads a statement measuring rules: the source refusing what a rule asked ('invalid') is that rule's error; anything else ends the run. */
async function readForRules(run: Run, statement: BuiltStatement, options: QueryOptions) {
  try {
    return await run.source.query(statement.sql, statement.params, options);
  } catch (err) {
    const error = sourceErrorOf(err);
    throw error.kind === 'invalid' ? error : new RunNotMeasured(error.message);
  }
}

interface ColumnIndex {
  /** The index's name, as the source names it. */
  name: string;
  /** A unique index on the column alone: no two rows share a value. */
  unique: boolean;
  /** The catalogue statement that found it. */
  statement: BuiltStatement;
}

/**
 * The indexes that lead with the columns of rules measured apart, from the source's catalogue: a
 * valid unique index on the column alone, else any b-tree index leading with it. PostgreSQL and
 * MySQL only; elsewhere, or when the catalogue cannot be read, none (the rules are then measured
 * by reading the table, which also reports a missing table).
 */
async function indexesOf(run: Run, rules: readonly PreparedRule[]): Promise<Map<string, ColumnIndex>> {
  const found = new Map<string, ColumnIndex>();
  const wanted = [...new Set(rules.map((prepared) => prepared.rule.columnName ?? ''))];
  const statement = wanted.length > 0 ? indexCatalogue(run) : undefined;
  if (!statement) return found;
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await run.source.query(statement.sql, statement.params, readOnly(SAMPLE_TIME_LIMIT_MS));
  } catch {
    return found;
  }
  for (const row of rows) {
    const column = String(row.column_name);
    if (!wanted.includes(column)) continue;
    const unique = row.is_unique === true || row.is_unique === 1 || row.is_unique === '1' || row.is_unique === 't';
    const known = found.get(column);
    if (!known || (unique && !known.unique)) found.set(column, { name: String(row.index_name), unique, statement });
  }
  return found;
}

/** The statement listing a table's single-purpose indexes by their leading column, or none for the dialect. */
function indexCatalogue(run: Run): BuiltStatement | undefined {
  if (run.source.dialect === 'postgres') {
    // indisunique over one key column, valid, not deferred, with no predicate nor expression; any b-tree otherwise.
    return buildStatement(
      run.dialect,
      (value) =>
        `select a.attname as column_name, c.relname as index_name, (i.indisunique and i.indimmediate and i.indnkeyatts = 1) as is_unique ` +
        `from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am m on m.oid = c.relam ` +
        `join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0] ` +
        `where i.indrelid = cast(${value(run.table)} as regclass) and i.indisvalid and i.indpred is null and i.indexprs is null and m.amname = 'btree'`,
    );
  }
  if (run.source.dialect === 'mysql') {
    const { schema, table } = splitTableEndpoint(run.endpoint);
    return buildStatement(
      run.dialect,
      (value) =>
        `select min(column_name) as column_name, index_name, (min(non_unique) = 0 and count(*) = 1) as is_unique ` +
        `from information_schema.statistics where table_schema = ${schema === undefined ? 'database()' : value(schema)} and table_name = ${value(table)} ` +
        `and index_type = 'BTREE' and seq_in_index = 1 group by index_name`,
    );
  }
  return undefined;
}

/** Whether a rule is measured by a statement of its own (checks.ts, `ownStatement`). */
const measuredApart = (prepared: PreparedRule) => {
  const check = checkOf(prepared);
  return check.judges === 'rows' && check.ownStatement === true;
};

/**
 * The rules' statements: one aggregate counting the rows with every rule it can hold, and one
 * statement for each rule measured apart. They run at once, each on a connection of its own (a
 * source with one connection takes them in turn), so the aggregate keeps a parallel plan while
 * the distinct counts are sorted beside it. A unique index on a rule's column alone proves the
 * rule with no read of the table; a plain index leading with it lets its repeats be counted in
 * the index's order, with no sort.
 */
async function measure(run: Run, columnRules: readonly PreparedRule[]): Promise<Measurement> {
  const startedAt = run.clock();
  const indexes = await indexesOf(run, columnRules.filter(measuredApart));
  // A unique index on the column alone proves the rule without reading a row.
  const proven = columnRules.filter((prepared) => indexes.get(prepared.rule.columnName ?? '')?.unique);
  const apart = columnRules.filter((prepared) => measuredApart(prepared) && !proven.includes(prepared));
  const together = columnRules.filter((prepared) => !measuredApart(prepared));
  // Nothing to run beside a distinct count: the row count joins it (one read of the table rather than two).
  if (together.length === 0 && apart.length > 0 && !indexes.has(apart[0]!.rule.columnName ?? '')) together.push(apart.shift()!);
  const settled = await Promise.allSettled([
    measureTogether(run, together),
    ...apart.map((prepared) => measureAlone(run, prepared, indexes.has(prepared.rule.columnName ?? ''))),
  ]);
  const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const [main, ...alone] = settled.map((outcome) => (outcome as PromiseFulfilledResult<Partial<Measurement>>).value);
  const byRule: Measurement['byRule'] = new Map(main!.byRule);
  for (const measured of alone) for (const [index, entry] of measured.byRule!) byRule.set(index, entry);
  for (const prepared of proven) {
    const { name, statement } = indexes.get(prepared.rule.columnName!)!;
    byRule.set(prepared.index, { row: { [`r${prepared.index}`]: 0 }, statement, provenBy: name });
  }
  return { rowsScanned: main!.rowsScanned!, byRule, countStatement: main!.countStatement!, startedAt, endedAt: run.clock() };
}

/** A rule measured apart: its own statement, or the source's refusal of what it asked. */
async function measureAlone(run: Run, prepared: PreparedRule, indexed: boolean): Promise<Pick<Measurement, 'byRule'>> {
  const alias = `r${prepared.index}`;
  const column = run.source.quote(prepared.rule.columnName ?? '');
  const statement = buildStatement(run.dialect, (value) =>
    indexed
      ? // Read in the index's order, the repeated values are counted group by group with no sort: rows with
        // a value, less one per value, as count(c) - count(distinct c) counts them.
        `select coalesce(sum(repeats - 1), 0) as ${alias} from (select count(*) as repeats from ${run.table} where ${column} is not null group by ${column} having count(*) > 1) repeated`
      : `select ${measuresOf(run, [prepared], value).join(', ')} from ${run.table}`,
  );
  try {
    const [row = {}] = await readForRules(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
    return { byRule: new Map([[prepared.index, { row, statement }]]) };
  } catch (err) {
    if (err instanceof RunNotMeasured) throw err;
    return { byRule: new Map([[prepared.index, { error: sourceErrorOf(err).message, statement }]]) };
  }
}

/** The one aggregate over the table; if the source refuses it for something a rule asked, each of its rules on its own. */
async function measureTogether(
  run: Run,
  columnRules: readonly PreparedRule[],
): Promise<Pick<Measurement, 'rowsScanned' | 'byRule' | 'countStatement'>> {
  const aggregate = aggregateOf(run, columnRules);
  try {
    const [row = {}] = await readForRules(run, aggregate, readOnly(AGGREGATE_TIME_LIMIT_MS));
    const byRule = new Map(columnRules.map((prepared) => [prepared.index, { row, statement: aggregate }]));
    return { rowsScanned: asCount(row.rows_scanned), byRule, countStatement: aggregate };
  } catch (err) {
    if (err instanceof RunNotMeasured) throw err;
  }
  const countStatement = aggregateOf(run, []);
  const [counted = {}] = await readOrEndRun(run, countStatement, readOnly(AGGREGATE_TIME_LIMIT_MS));
  const byRule: Measurement['byRule'] = new Map();
  for (const prepared of columnRules) {
    const statement = aggregateOf(run, [prepared]);
    try {
      const [row = {}] = await readForRules(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
      byRule.set(prepared.index, { row, statement });
    } catch (err) {
      if (err instanceof RunNotMeasured) throw err;
      byRule.set(prepared.index, { error: sourceErrorOf(err).message, statement });
    }
  }
  return { rowsScanned: asCount(counted.rows_scanned), byRule, countStatement };
}

/**
 * The table's rules as one aggregate statement, the way one query per table measures them (and
 * this engine did before rules were measured apart): for the benchmark's side-by-side figure.
 */
export function singleAggregateStatement(source: TableSource, endpoint: string, rules: RuleToRun[]): BuiltStatement {
  const run = { source, dialect: QUALITY_DIALECTS[source.dialect], table: source.tableName(endpoint) } as Run;
  const columnRules = rules
    .map(prepare)
    .filter((entry): entry is PreparedRule => 'params' in entry && isColumnKind(entry.rule.functionName));
  return aggregateOf(run, columnRules);
}

/** A row rule's verdict from its count of failing rows. */
function judgeRows(rule: RuleToRun, rowsFailed: number, rowsScanned: number, found: string) {
  const share = rowsScanned > 0 ? Math.min(1, rowsFailed / rowsScanned) : rowsFailed > 0 ? 1 : 0;
  const passed = share <= rule.tolerance;
  return {
    status: statusOf(rule, passed),
    observed: String(rowsFailed),
    rowsScanned,
    rowsFailed,
    failedShare: share,
    message: `${found}${toleranceInWords(share, rule.tolerance)}`,
  };
}

function judgeNewest(
  rule: RuleToRun,
  params: QualityParams['freshness'],
  row: Record<string, unknown>,
  alias: string,
  rowsScanned: number,
) {
  const newest = row[alias];
  const column = rule.columnName ?? '';
  const common = { rowsScanned, rowsFailed: null, failedShare: null };
  if (newest === null || newest === undefined) {
    return { ...common, status: statusOf(rule, false), observed: null, message: `${column} holds no value` };
  }
  const ageSeconds = row[`${alias}_age`];
  if (ageSeconds === null || ageSeconds === undefined || Number.isNaN(Number(ageSeconds))) {
    return {
      ...common,
      status: 'error' as const,
      observed: String(newest),
      message: `the newest ${column}, ${String(newest)}, cannot be compared with the source's clock`,
    };
  }
  const passed = Number(ageSeconds) <= params.maxAgeMinutes * 60;
  return {
    ...common,
    status: statusOf(rule, passed),
    observed: String(newest),
    message: `the newest ${column} (${String(newest)}) is ${ageInWords(Number(ageSeconds))}; at most ${params.maxAgeMinutes} minutes old allowed`,
  };
}

function judgeColumnRule(prepared: PreparedRule, measurement: Measurement): ResultRow {
  const { rule } = prepared;
  const measured = measurement.byRule.get(prepared.index)!;
  const { startedAt, endedAt } = measurement;
  if ('error' in measured) return errorResult(rule, measured.error, measured.statement.shown, startedAt, endedAt);
  const check = checkOf(prepared);
  const alias = `r${prepared.index}`;
  const verdict =
    check.judges === 'rows'
      ? judgeRows(
          rule,
          asCount(measured.row[alias]),
          measurement.rowsScanned,
          `${rowsInWords(asCount(measured.row[alias]), measurement.rowsScanned)}: ${check.describe(rule.columnName ?? '', prepared.params as never)}${
            measured.provenBy ? ` (the unique index ${measured.provenBy} allows none; no row was read for it)` : ''
          }`,
        )
      : judgeNewest(rule, prepared.params as QualityParams['freshness'], measured.row, alias, measurement.rowsScanned);
  return { ...baseResult(rule), ...verdict, sample: [], query: measured.statement.shown, startedAt, endedAt };
}

function judgeRowCount(prepared: PreparedRule, measurement: Measurement): ResultRow {
  const { rule } = prepared;
  const bounds = prepared.params as QualityParams['row_count_between'];
  const rows = measurement.rowsScanned;
  const passed = (bounds.min == null || rows >= bounds.min) && (bounds.max == null || rows <= bounds.max);
  return {
    ...baseResult(rule),
    status: statusOf(rule, passed),
    observed: String(rows),
    rowsScanned: rows,
    rowsFailed: null,
    failedShare: null,
    sample: [],
    query: measurement.countStatement.shown,
    message: `the table holds ${rows} ${rows === 1 ? 'row' : 'rows'}; expected ${expectedInWords(bounds)}`,
    startedAt: measurement.startedAt,
    endedAt: measurement.endedAt,
  };
}

/**
 * Adds the failing rows to a failed row rule's result. A sample that cannot be read leaves the
 * verdict as it was and says why, unless the source or table is gone (the run then ends).
 */
async function withSample(run: Run, result: ResultRow, statement: BuiltStatement): Promise<ResultRow> {
  try {
    const rows = await run.source.query(statement.sql, statement.params, readOnly(SAMPLE_TIME_LIMIT_MS, run.sampleRows));
    return { ...result, sample: sampleOf(rows, run.columns, run.sampleRows), endedAt: run.clock() };
  } catch (err) {
    const error = sourceErrorOf(err);
    if (SOURCE_GONE.has(error.kind)) throw new RunNotMeasured(error.message);
    return { ...result, message: `${result.message} (its failing rows could not be read: ${error.message})`, endedAt: run.clock() };
  }
}

const needsSample = (result: ResultRow) => (result.status === 'failed' || result.status === 'warned') && (result.rowsFailed ?? 0) > 0;

/** The column of a custom rule's statement that counts the query's rows: a name no query of a company is likely to give its own. */
const FAILING_ROWS_COLUMN = 'dataops_failing_rows_0f3c';

/**
 * custom_sql: each row its query returns is a failing row. The query is checked and re-printed
 * (server/sql/company-sql.ts) and runs once, on its own, read-only, within 60 s: one statement
 * reads its first rows as the sample and, beside each, how many rows it returns in all.
 */
async function runCustom(run: Run, prepared: PreparedRule, rowsScanned: number): Promise<ResultRow> {
  const { rule } = prepared;
  const written = (prepared.params as QualityParams['custom_sql']).sql;
  const startedAt = run.clock();
  let query: string;
  try {
    query = await checkCompanySql(run.source.dialect, written);
  } catch (err) {
    return errorResult(rule, sourceErrorOf(err).message, written, startedAt, run.clock());
  }
  const statement = buildStatement(
    run.dialect,
    () => `select q.*, count(*) over () as ${FAILING_ROWS_COLUMN} from (\n${query}\n) q limit ${run.sampleRows}`,
  );
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await run.source.query(statement.sql, statement.params, readOnly(CUSTOM_SQL_TIME_LIMIT_MS, run.sampleRows));
  } catch (err) {
    const error = sourceErrorOf(err);
    if (error.kind === 'unreachable' || error.kind === 'auth') throw new RunNotMeasured(error.message);
    return errorResult(rule, error.message, statement.shown, startedAt, run.clock());
  }
  const rowsFailed = asCount(rows[0]?.[FAILING_ROWS_COLUMN]);
  const result: ResultRow = {
    ...baseResult(rule),
    ...judgeRows(
      rule,
      rowsFailed,
      rowsScanned,
      `the query returns ${rowsFailed} ${rowsFailed === 1 ? 'row' : 'rows'}; the table holds ${rowsScanned}`,
    ),
    sample: [],
    query: statement.shown,
    startedAt,
    endedAt: run.clock(),
  };
  if (!needsSample(result)) return result;
  const failingRows = rows.map(({ [FAILING_ROWS_COLUMN]: _count, ...row }) => row);
  return { ...result, sample: sampleOf(failingRows, run.columns, run.sampleRows) };
}

/** 'failed' if a fail rule failed or could not be measured, 'warned' if only warn rules did, else 'passed'. */
function runStatusOf(results: readonly ResultRow[]): ResultStatus {
  const missed = results.filter((result) => result.status !== 'passed');
  if (missed.some((result) => result.status === 'failed' || (result.status === 'error' && result.severity === 'fail'))) return 'failed';
  return missed.length > 0 ? 'warned' : 'passed';
}

export async function evaluateRules(source: TableSource, input: EvaluationInput): Promise<RunOutcome> {
  if (input.rules.length === 0) return { status: 'passed', results: [] };
  const clock = input.now ?? (() => new Date());
  let run: Run;
  try {
    run = {
      source,
      dialect: QUALITY_DIALECTS[source.dialect],
      endpoint: input.endpoint,
      table: source.tableName(input.endpoint),
      columns: input.columns,
      clock,
      sampleRows: sampleRowsWanted(input.sampleRows),
    };
  } catch (err) {
    return { status: 'error', error: sourceErrorOf(err).message, results: [] };
  }
  const prepared = input.rules.map(prepare);
  const measurable = prepared.filter((entry): entry is PreparedRule => 'params' in entry);
  const columnRules = measurable.filter((entry) => isColumnKind(entry.rule.functionName));
  try {
    const measurement = await measure(run, columnRules);
    const results = new Map<number, ResultRow>();
    for (const entry of measurable) {
      if (isColumnKind(entry.rule.functionName)) {
        let result = judgeColumnRule(entry, measurement);
        const check = checkOf(entry);
        if (check.judges === 'rows' && needsSample(result)) {
          result = await withSample(
            run,
            result,
            buildStatement(run.dialect, (value) => check.sample(contextOf(run, entry, value), run.sampleRows)),
          );
        }
        results.set(entry.index, result);
      } else if (entry.rule.functionName === 'row_count_between') {
        results.set(entry.index, judgeRowCount(entry, measurement));
      } else {
        results.set(entry.index, await runCustom(run, entry, measurement.rowsScanned));
      }
    }
    const ordered = prepared.map((entry, index) => {
      if ('problem' in entry) {
        const at = clock();
        return errorResult(entry.rule, entry.problem, '', at, at);
      }
      return results.get(index)!;
    });
    return { status: runStatusOf(ordered), results: ordered };
  } catch (err) {
    return { status: 'error', error: err instanceof Error ? err.message : String(err), results: [] };
  }
}

/**
 * The failing rows a rule keeps, as a whole number from 1 to 1,000: it is written into the
 * statement's LIMIT, so anything else (a caller that skipped the settings' schema) falls back to 20.
 */
export function sampleRowsWanted(value: number | undefined): number {
  return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 1000 ? value : SAMPLE_ROWS;
}
