import { FUNCTION_TYPE_OF, PARAMS_OF, type QualityFunction, type QualityParams } from '../../common/schemas/quality';
import { ConnectorError, splitTableEndpoint, type QueryOptions, type TableSource } from '../connectors/types';
import { COLUMN_CHECKS, type CheckContext, type NewestCheck, type RowCheck } from './checks';
import { buildStatement, QUALITY_DIALECTS, type BuiltStatement, type QualityDialect, type ValueWriter } from './dialects';
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
 * those has a statement of its own, run at the same time on another connection. Samples are read
 * only for the rules that failed; custom SQL runs on its own, once.
 *
 * A table with a watermark column is checked incrementally: a row rule whose last result covered
 * the rows up to some value reads only the rows after it (up to the greatest value when the run
 * starts), in an aggregate of its own; `unique` looks the new rows' values up in the whole table;
 * row_count_between and freshness stay whole-table, read as cheaply as their verdict allows. A
 * rule asked to run on a sample reads that share of the table's pages, and its result is an
 * estimate. When the
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
  /**
   * The table's watermark column, and by rule id the value the rule's rows are read after (the
   * greatest its last result covered). A rule without one reads every row.
   */
  watermark?: { column: string; after: ReadonlyMap<string, string> };
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
  /** The table's watermark: its column, quoted, and its greatest value when the run started (null: no row has one). */
  watermark?: { column: string; quoted: string; upTo: string | null; after: ReadonlyMap<string, string> };
}

/** Which rows a statement reads: those past a watermark (up to the run's), a sample of the table's pages, both, or all. */
interface Scope {
  after?: string;
  samplePercent?: number;
}

const scopeKey = (scope: Scope) => `${scope.after ?? ''}\u0000${scope.samplePercent ?? ''}`;

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

type Coverage = Pick<ResultRow, 'coveredColumn' | 'coveredAfter' | 'coveredUpTo' | 'samplePercent' | 'advice'>;

/** A result of the whole table, exact. */
const WHOLE_TABLE: Coverage = { coveredColumn: null, coveredAfter: null, coveredUpTo: null, samplePercent: null, advice: null };

function baseResult(rule: RuleToRun): Pick<ResultRow, 'ruleId' | 'ruleName' | 'functionName' | 'columnName' | 'severity'> & Coverage {
  return {
    ruleId: rule.id,
    ruleName: rule.name,
    functionName: rule.functionName,
    columnName: rule.columnName,
    severity: rule.severity,
    ...WHOLE_TABLE,
  };
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

function contextOf(run: Run, prepared: PreparedRule, value: ValueWriter, scope: Scope = {}): CheckContext<never> {
  const { after } = scope;
  return {
    column: run.source.quote(prepared.rule.columnName ?? ''),
    table: run.table,
    params: prepared.params as never,
    dialect: run.dialect,
    value,
    ...(after === undefined ? {} : { rows: () => sinceCondition(run, after, value) }),
  };
}

const checkOf = (prepared: PreparedRule) => COLUMN_CHECKS[prepared.rule.functionName as ColumnKind] as RowCheck<never> | NewestCheck;

/** Whether a rule judges rows one by one, and so may read only the new ones, or a sample. */
const judgesRows = (prepared: PreparedRule) => isColumnKind(prepared.rule.functionName) && checkOf(prepared).judges === 'rows';

/** The rows a rule reads this run. */
function scopeOf(run: Run, prepared: PreparedRule): Scope {
  if (!judgesRows(prepared)) return {};
  const after = run.watermark?.upTo != null ? run.watermark.after.get(prepared.rule.id) : undefined;
  // A distinct count over a sample says nothing of the table's repeats: unique is never sampled (the rule's body refuses it).
  const samplePercent = measuredApart(prepared) ? undefined : (prepared.rule.samplePercent ?? undefined);
  return { ...(after === undefined ? {} : { after }), ...(samplePercent ? { samplePercent } : {}) };
}

/** The rows past `after`, up to the run's watermark: written where it stands in the statement. */
function sinceCondition(run: Run, after: string, value: ValueWriter): string {
  const { quoted, upTo } = run.watermark!;
  return `${quoted} > ${value(after)} and ${quoted} <= ${value(upTo!)}`;
}

/** `from …` of a statement reading a scope's rows. */
function fromScope(run: Run, scope: Scope, value: ValueWriter): string {
  const sampled = scope.samplePercent ? run.dialect.sampled(run.table, scope.samplePercent) : { from: run.table };
  const conditions = [sampled.where, scope.after === undefined ? undefined : sinceCondition(run, scope.after, value)].filter(Boolean);
  return `from ${sampled.from}${conditions.length > 0 ? ` where ${conditions.join(' and ')}` : ''}`;
}

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

function aggregateOf(run: Run, rules: readonly PreparedRule[], scope: Scope = {}): BuiltStatement {
  return buildStatement(
    run.dialect,
    (value) => `select ${['count(*) as rows_scanned', ...measuresOf(run, rules, value)].join(', ')} ${fromScope(run, scope, value)}`,
  );
}

/** What measured one rule: the row holding its measure, the rows it read (null: not counted) and which. */
type Measured =
  | { row: Record<string, unknown>; statement: BuiltStatement; rowsScanned: number | null; scope: Scope; provenBy?: string }
  | { error: string; statement: BuiltStatement; scope: Scope };

interface Measurement {
  /** Per rule index: its measure, or the source's refusal. */
  byRule: Map<number, Measured>;
  /** The table's rows, when counted: exactly, or up to `bound` (when it holds `bound`, it may hold more). */
  tableRows?: { rows: number; statement: BuiltStatement; bound?: number };
  /** The indexes leading with the columns that mattered; undefined where the source's catalogue could not say. */
  indexes?: Map<string, ColumnIndex>;
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
async function indexesOf(run: Run, columns: readonly string[]): Promise<Map<string, ColumnIndex> | undefined> {
  const found = new Map<string, ColumnIndex>();
  const wanted = [...new Set(columns)];
  if (wanted.length === 0) return found;
  const statement = indexCatalogue(run);
  if (!statement) return undefined;
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await run.source.query(statement.sql, statement.params, readOnly(SAMPLE_TIME_LIMIT_MS));
  } catch {
    return undefined;
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
 * The rules' statements, all run at once, each on a connection of its own (a source with one
 * connection takes them in turn):
 * - one aggregate over the whole table counting its rows, with every rule reading the whole table
 *   it can hold, so it keeps a parallel plan;
 * - one aggregate per other set of rows rules read (the rows past a watermark, a sample);
 * - a statement per `unique` rule, sorted beside the aggregate. A unique index on the rule's column
 *   alone proves it with no read of the table; a plain index leading with it lets its repeats be
 *   counted in the index's order, with no sort, or the new rows' values be looked up.
 *
 * When no rule reads the whole table (an incremental run), nothing counts the whole table unless
 * a custom rule needs it: freshness reads the newest value alone, and row_count_between counts
 * no further than its bounds need.
 */
async function measure(
  run: Run,
  columnRules: readonly PreparedRule[],
  rowCountRules: readonly PreparedRule[],
  custom: boolean,
): Promise<Measurement> {
  const startedAt = run.clock();
  const incremental = columnRules.some((prepared) => scopeOf(run, prepared).after !== undefined);
  const newest = columnRules.filter((prepared) => !judgesRows(prepared));
  const apartRules = columnRules.filter(measuredApart);
  const columnOf = (prepared: PreparedRule) => prepared.rule.columnName ?? '';
  const indexes = await indexesOf(run, [
    ...apartRules.map(columnOf),
    ...(incremental ? [run.watermark!.column, ...newest.map(columnOf)] : []),
  ]);
  const found = indexes ?? new Map<string, ColumnIndex>();
  // A unique index on the column alone proves the rule without reading a row.
  const proven = apartRules.filter((prepared) => found.get(columnOf(prepared))?.unique);
  const apart = apartRules.filter((prepared) => !proven.includes(prepared));
  const groups = new Map<string, { scope: Scope; rules: PreparedRule[] }>();
  for (const prepared of columnRules) {
    if (measuredApart(prepared) || !judgesRows(prepared)) continue;
    const scope = scopeOf(run, prepared);
    const group = groups.get(scopeKey(scope));
    if (group) group.rules.push(prepared);
    else groups.set(scopeKey(scope), { scope, rules: [prepared] });
  }
  const wholeKey = scopeKey({});
  const readsWhole = (prepared: PreparedRule) => scopeOf(run, prepared).after === undefined;
  const wholeNeeded =
    groups.has(wholeKey) ||
    apart.some(readsWhole) ||
    proven.some(readsWhole) ||
    custom ||
    (!incremental && (newest.length > 0 || rowCountRules.length > 0));
  if (wholeNeeded) {
    const whole = groups.get(wholeKey) ?? { scope: {}, rules: [] };
    groups.set(wholeKey, whole);
    whole.rules.push(...newest);
    // In the rules' own order, as the statement has always listed them.
    whole.rules.sort((a, b) => a.index - b.index);
    // Nothing to run beside a distinct count: the row count joins it (one read of the table rather than two).
    const alone = whole.rules.length === 0 ? apart.find((prepared) => readsWhole(prepared) && !found.has(columnOf(prepared))) : undefined;
    if (alone) {
      whole.rules.push(alone);
      apart.splice(apart.indexOf(alone), 1);
    }
  }
  const settled = await Promise.allSettled([
    ...[...groups.values()].map((group) => measureTogether(run, group.rules, group.scope)),
    ...apart.map((prepared) => measureAlone(run, prepared, found.has(columnOf(prepared)))),
    ...(!wholeNeeded && newest.length > 0 ? [measureNewest(run, newest)] : []),
    ...(!wholeNeeded && rowCountRules.length > 0 ? [countUpTo(run, rowCountRules)] : []),
  ]);
  const failure = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  const byRule: Measurement['byRule'] = new Map();
  let tableRows: Measurement['tableRows'];
  for (const outcome of settled) {
    const measured = (outcome as PromiseFulfilledResult<Partial<Pick<Measurement, 'byRule' | 'tableRows'>>>).value;
    for (const [index, entry] of measured.byRule ?? []) byRule.set(index, entry);
    tableRows ??= measured.tableRows;
  }
  // Rules of the whole table measured apart read its row count.
  for (const [index, entry] of byRule) {
    if (
      'row' in entry &&
      entry.rowsScanned === null &&
      entry.scope.after === undefined &&
      !entry.scope.samplePercent &&
      judgesRowsAt(columnRules, index)
    )
      byRule.set(index, { ...entry, rowsScanned: tableRows?.rows ?? null });
  }
  for (const prepared of proven) {
    const { name, statement } = found.get(columnOf(prepared))!;
    byRule.set(prepared.index, {
      row: { [`r${prepared.index}`]: 0 },
      statement,
      rowsScanned: tableRows?.rows ?? null,
      scope: {},
      provenBy: name,
    });
  }
  return { byRule, ...(tableRows ? { tableRows } : {}), ...(indexes ? { indexes } : {}), startedAt, endedAt: run.clock() };
}

const judgesRowsAt = (rules: readonly PreparedRule[], index: number) => {
  const prepared = rules.find((candidate) => candidate.index === index);
  return prepared !== undefined && judgesRows(prepared);
};

/**
 * A rule measured apart: its own statement, or the source's refusal of what it asked. Of the
 * whole table, its repeats; of the rows past a watermark, those of the new rows whose value
 * another row of the table holds, looked up through an index on the column where there is one.
 */
async function measureAlone(run: Run, prepared: PreparedRule, indexed: boolean): Promise<Pick<Measurement, 'byRule'>> {
  const alias = `r${prepared.index}`;
  const scope = scopeOf(run, prepared);
  const { after } = scope;
  const column = run.source.quote(prepared.rule.columnName ?? '');
  const statement = buildStatement(run.dialect, (value) => {
    if (after !== undefined && prepared.rule.columnName === run.watermark?.column) {
      // The watermark column itself: a value of a new row lies past the watermark, and so does every row holding it.
      // Its repeats are among the new rows alone.
      return `select count(*) as rows_scanned, ${measuresOf(run, [prepared], value).join(', ')} ${fromScope(run, scope, value)}`;
    }
    if (after !== undefined && indexed) {
      // Each new row's value looked up through the index: a handful of index entries per new row, not a read of the table.
      const repeated = `n.${column} is not null and (select count(*) from ${run.table} o where o.${column} = n.${column}) > 1`;
      return `select count(*) as rows_scanned, coalesce(${countOf(run.dialect, repeated)}, 0) as ${alias} from ${run.table} n where ${sinceCondition(run, after, value)}`;
    }
    if (after !== undefined) {
      // No index: the new rows' values are matched in one read of the table.
      const repeated = `${column} in (select ${column} from ${run.table} where ${column} in (select ${column} from ${run.table} where ${sinceCondition(run, after, value)}) group by ${column} having count(*) > 1)`;
      return `select count(*) as rows_scanned, coalesce(${countOf(run.dialect, repeated)}, 0) as ${alias} ${fromScope(run, scope, value)}`;
    }
    return indexed
      ? // Read in the index's order, the repeated values are counted group by group with no sort: rows with
        // a value, less one per value, as count(c) - count(distinct c) counts them.
        `select coalesce(sum(repeats - 1), 0) as ${alias} from (select count(*) as repeats from ${run.table} where ${column} is not null group by ${column} having count(*) > 1) repeated`
      : `select ${measuresOf(run, [prepared], value).join(', ')} from ${run.table}`;
  });
  try {
    const [row = {}] = await readForRules(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
    const rowsScanned = after === undefined ? null : asCount(row.rows_scanned);
    return { byRule: new Map([[prepared.index, { row, statement, rowsScanned, scope }]]) };
  } catch (err) {
    if (err instanceof RunNotMeasured) throw err;
    return { byRule: new Map([[prepared.index, { error: sourceErrorOf(err).message, statement, scope }]]) };
  }
}

/** The rows meeting `condition`, counted as the dialect counts best. */
const countOf = (dialect: QualityDialect, condition: string) =>
  dialect.countWhere ? dialect.countWhere(condition) : `sum(case when ${condition} then 1 else 0 end)`;

/** freshness rules of a run that reads no whole table: the newest values alone, which an index on the column answers at once. */
async function measureNewest(run: Run, rules: readonly PreparedRule[]): Promise<Pick<Measurement, 'byRule'>> {
  const statement = buildStatement(run.dialect, (value) => `select ${measuresOf(run, rules, value).join(', ')} from ${run.table}`);
  const [row = {}] = await readOrEndRun(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
  return { byRule: new Map(rules.map((prepared) => [prepared.index, { row, statement, rowsScanned: null, scope: {} }])) };
}

/**
 * row_count_between of a run that reads no whole table: the rows counted up to the most any of
 * its rules needs to judge (one more than a max, or the min). Below that bound the count is
 * exact; at it, the table holds at least that many, which is all the verdicts need.
 */
async function countUpTo(run: Run, rules: readonly PreparedRule[]): Promise<Pick<Measurement, 'tableRows'>> {
  const bound = Math.max(
    ...rules.map((prepared) => {
      const { min, max } = prepared.params as QualityParams['row_count_between'];
      return max != null ? max + 1 : (min ?? 0);
    }),
  );
  const statement = buildStatement(
    run.dialect,
    () => `select count(*) as rows_scanned from (select 1 as one from ${run.table} limit ${bound}) bounded`,
  );
  const [row = {}] = await readOrEndRun(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
  return { tableRows: { rows: asCount(row.rows_scanned), statement, bound } };
}

/** An aggregate over a scope's rows; if the source refuses it for something a rule asked, each of its rules on its own. */
async function measureTogether(
  run: Run,
  columnRules: readonly PreparedRule[],
  scope: Scope,
): Promise<Pick<Measurement, 'byRule' | 'tableRows'>> {
  const whole = scope.after === undefined && !scope.samplePercent;
  const aggregate = aggregateOf(run, columnRules, scope);
  const answer = (rowsScanned: number, byRule: Measurement['byRule'], statement: BuiltStatement) => ({
    byRule,
    ...(whole ? { tableRows: { rows: rowsScanned, statement } } : {}),
  });
  try {
    const [row = {}] = await readForRules(run, aggregate, readOnly(AGGREGATE_TIME_LIMIT_MS));
    const rowsScanned = asCount(row.rows_scanned);
    const byRule: Measurement['byRule'] = new Map(
      columnRules.map((prepared) => [prepared.index, { row, statement: aggregate, rowsScanned, scope }]),
    );
    return answer(rowsScanned, byRule, aggregate);
  } catch (err) {
    if (err instanceof RunNotMeasured) throw err;
  }
  const countStatement = aggregateOf(run, [], scope);
  const [counted = {}] = await readOrEndRun(run, countStatement, readOnly(AGGREGATE_TIME_LIMIT_MS));
  const rowsScanned = asCount(counted.rows_scanned);
  const byRule: Measurement['byRule'] = new Map();
  for (const prepared of columnRules) {
    const statement = aggregateOf(run, [prepared], scope);
    try {
      const [row = {}] = await readForRules(run, statement, readOnly(AGGREGATE_TIME_LIMIT_MS));
      // A sample is drawn again by each statement: the rule's own count of the rows it read.
      byRule.set(prepared.index, { row, statement, rowsScanned: scope.samplePercent ? asCount(row.rows_scanned) : rowsScanned, scope });
    } catch (err) {
      if (err instanceof RunNotMeasured) throw err;
      byRule.set(prepared.index, { error: sourceErrorOf(err).message, statement, scope });
    }
  }
  return answer(rowsScanned, byRule, countStatement);
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
function judgeRows(rule: RuleToRun, rowsFailed: number, rowsScanned: number | null, found: string) {
  const share = rowsScanned !== null && rowsScanned > 0 ? Math.min(1, rowsFailed / rowsScanned) : rowsFailed > 0 ? 1 : 0;
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
  rowsScanned: number | null,
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

function judgeColumnRule(run: Run, prepared: PreparedRule, measurement: Measurement): ResultRow {
  const { rule } = prepared;
  const measured = measurement.byRule.get(prepared.index)!;
  const { startedAt, endedAt } = measurement;
  const coverage = coverageOf(run, prepared, measured.scope);
  if ('error' in measured) return { ...errorResult(rule, measured.error, measured.statement.shown, startedAt, endedAt), ...coverage };
  const check = checkOf(prepared);
  const alias = `r${prepared.index}`;
  const { rowsScanned } = measured;
  const failed = asCount(measured.row[alias]);
  const verdict =
    check.judges === 'rows'
      ? judgeRows(
          rule,
          failed,
          rowsScanned,
          `${rowsScanned === null ? `${failed} ${failed === 1 ? 'row' : 'rows'}` : rowsInWords(failed, rowsScanned)}${rowsCoveredInWords(run, measured.scope)}: ${check.describe(
            rule.columnName ?? '',
            prepared.params as never,
          )}${measured.provenBy ? ` (the unique index ${measured.provenBy} allows none; no row was read for it)` : ''}`,
        )
      : judgeNewest(rule, prepared.params as QualityParams['freshness'], measured.row, alias, rowsScanned);
  return { ...baseResult(rule), ...verdict, ...coverage, sample: [], query: measured.statement.shown, startedAt, endedAt };
}

/**
 * Which rows a row rule's result covers. With a watermark, every row rule says where its next
 * run starts (the greatest value when this one started), reading all rows or the new ones; a
 * rule proven by a unique index covered every row.
 */
function coverageOf(run: Run, prepared: PreparedRule, scope: Scope): Coverage {
  if (!judgesRows(prepared)) return WHOLE_TABLE;
  return {
    ...WHOLE_TABLE,
    ...(run.watermark?.upTo != null
      ? { coveredColumn: run.watermark.column, coveredAfter: scope.after ?? null, coveredUpTo: run.watermark.upTo }
      : {}),
    samplePercent: scope.samplePercent ?? null,
  };
}

/** " with id after 9900000", " in a sample of the table (1% of its pages; an estimate)", or nothing for every row. */
function rowsCoveredInWords(run: Run, scope: Scope): string {
  const since = scope.after === undefined ? '' : ` with ${run.watermark!.column} after ${scope.after}`;
  const sample = scope.samplePercent ? ` in a sample (${scope.samplePercent}% of the table's pages; an estimate)` : '';
  return `${since}${sample}`;
}

function judgeRowCount(prepared: PreparedRule, measurement: Measurement): ResultRow {
  const { rule } = prepared;
  const bounds = prepared.params as QualityParams['row_count_between'];
  const { rows, statement, bound } = measurement.tableRows!;
  // Counted up to a bound and reaching it: at least that many, more than any max below it.
  const atLeast = bound !== undefined && rows >= bound;
  const passed = (bounds.min == null || rows >= bounds.min) && (bounds.max == null || (!atLeast && rows <= bounds.max));
  const held = atLeast ? `at least ${rows} ${rows === 1 ? 'row' : 'rows'} (counted no further)` : `${rows} ${rows === 1 ? 'row' : 'rows'}`;
  return {
    ...baseResult(rule),
    status: statusOf(rule, passed),
    observed: atLeast ? `at least ${rows}` : String(rows),
    rowsScanned: rows,
    rowsFailed: null,
    failedShare: null,
    sample: [],
    query: statement.shown,
    message: `the table holds ${held}; expected ${expectedInWords(bounds)}`,
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

/** The table's watermark column, and its greatest value as the source's own text, read before the rules. */
async function watermarkOf(run: Run, watermark: NonNullable<EvaluationInput['watermark']>): Promise<NonNullable<Run['watermark']>> {
  const quoted = run.source.quote(watermark.column);
  const statement = buildStatement(run.dialect, () => `select ${run.dialect.asString(`max(${quoted})`)} as up_to from ${run.table}`);
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await run.source.query(statement.sql, statement.params, readOnly(AGGREGATE_TIME_LIMIT_MS));
  } catch (err) {
    throw new RunNotMeasured(`The watermark column ${watermark.column} could not be read: ${sourceErrorOf(err).message}`);
  }
  const upTo = rows[0]?.up_to;
  return { column: watermark.column, quoted, upTo: upTo === null || upTo === undefined ? null : String(upTo), after: watermark.after };
}

/** The statement creating an index on `column`, named after the table and the column. */
function createIndexStatement(run: Run, column: string): string {
  const { table } = splitTableEndpoint(run.endpoint);
  const name = `${table}_${column}_idx`.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 60);
  return `create index ${run.source.quote(name)} on ${run.table} (${run.source.quote(column)})`;
}

/**
 * What would make a rule of an incremental run cheaper, where the source's catalogue could say:
 * an index on the watermark column (to find the new rows), on a unique rule's column (to look
 * their values up), on a freshness column read alone (to find the newest value).
 */
function adviceOf(run: Run, prepared: PreparedRule, measurement: Measurement): string | null {
  const { indexes } = measurement;
  const measured = measurement.byRule.get(prepared.index);
  if (!indexes || !run.watermark || !measured) return null;
  const column = prepared.rule.columnName ?? '';
  const watermark = run.watermark.column;
  if (measured.scope.after !== undefined) {
    if (!indexes.has(watermark))
      return `Finding the rows with ${watermark} after the last check reads the whole table without an index on ${watermark}: ${createIndexStatement(run, watermark)}`;
    if (measuredApart(prepared) && !indexes.has(column))
      return `The new rows' values of ${column} are looked up by reading the whole table; an index on ${column} finds them directly: ${createIndexStatement(run, column)}`;
  }
  if (!judgesRows(prepared) && 'row' in measured && measured.rowsScanned === null && !indexes.has(column))
    return `The newest ${column} is found by reading the whole table; an index on ${column} finds it at once: ${createIndexStatement(run, column)}`;
  return null;
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
  const rowCountRules = measurable.filter((entry) => entry.rule.functionName === 'row_count_between');
  const custom = measurable.some((entry) => entry.rule.functionName === 'custom_sql');
  try {
    if (input.watermark) run.watermark = await watermarkOf(run, input.watermark);
    const measurement = await measure(run, columnRules, rowCountRules, custom);
    const results = new Map<number, ResultRow>();
    for (const entry of measurable) {
      if (isColumnKind(entry.rule.functionName)) {
        let result = judgeColumnRule(run, entry, measurement);
        const check = checkOf(entry);
        const { scope } = measurement.byRule.get(entry.index)!;
        if (check.judges === 'rows' && needsSample(result)) {
          result = await withSample(
            run,
            result,
            buildStatement(run.dialect, (value) => check.sample(contextOf(run, entry, value, scope), run.sampleRows)),
          );
        }
        results.set(entry.index, { ...result, advice: adviceOf(run, entry, measurement) });
      } else if (entry.rule.functionName === 'row_count_between') {
        results.set(entry.index, judgeRowCount(entry, measurement));
      } else {
        results.set(entry.index, await runCustom(run, entry, measurement.tableRows?.rows ?? 0));
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
