import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { qualified, type Db } from '../db/client';
import { qualityResults, qualityRules, qualityRuns } from '../db/schema';

/** Data-quality rules, runs and results as the tables area reads and writes them (docs/api/tables.md). */

/** The newest result of a rule, beside it. */
const lastResult = sql<Record<string, unknown> | null>`(
  select json_build_object(
    'runId', x.run_id, 'status', x.status, 'observed', x.observed, 'rowsScanned', x.rows_scanned, 'rowsFailed', x.rows_failed,
    'failedShare', x.failed_share, 'message', x.message, 'coveredColumn', x.covered_column, 'coveredAfter', x.covered_after,
    'samplePercent', x.sample_percent, 'startedAt', x.started_at, 'endedAt', x.ended_at)
  from ${qualityResults} x where x.company_id = ${qualified('quality_rules', 'company_id')} and x.rule_id = ${qualified('quality_rules', 'id')}
  order by x.ended_at desc limit 1
)`;

export const ruleColumns = {
  id: qualityRules.id,
  tableId: qualityRules.tableId,
  name: qualityRules.name,
  functionType: qualityRules.functionType,
  functionName: qualityRules.functionName,
  columnName: qualityRules.columnName,
  params: qualityRules.params,
  severity: qualityRules.severity,
  tolerance: qualityRules.tolerance,
  samplePercent: qualityRules.samplePercent,
  isActive: qualityRules.isActive,
  lastResult,
  createdAt: qualityRules.createdAt,
  updatedAt: qualityRules.updatedAt,
};

export function selectRules(db: Db) {
  return db.select(ruleColumns).from(qualityRules).$dynamic();
}

export type RuleRow = Awaited<ReturnType<ReturnType<typeof selectRules>['execute']>>[number];

export const rulesOf = (companyId: string, tableId: string, extra?: SQL) =>
  and(eq(qualityRules.companyId, companyId), eq(qualityRules.tableId, tableId), extra)!;

export const newestRulesFirst = [desc(qualityRules.createdAt), desc(qualityRules.id)];

export const resultColumns = {
  ruleId: qualityResults.ruleId,
  ruleName: qualityResults.ruleName,
  functionName: qualityResults.functionName,
  columnName: qualityResults.columnName,
  severity: qualityResults.severity,
  status: qualityResults.status,
  observed: qualityResults.observed,
  rowsScanned: qualityResults.rowsScanned,
  rowsFailed: qualityResults.rowsFailed,
  failedShare: qualityResults.failedShare,
  sample: qualityResults.sample,
  query: qualityResults.query,
  message: qualityResults.message,
  coveredColumn: qualityResults.coveredColumn,
  coveredAfter: qualityResults.coveredAfter,
  coveredUpTo: qualityResults.coveredUpTo,
  samplePercent: qualityResults.samplePercent,
  advice: qualityResults.advice,
  startedAt: qualityResults.startedAt,
  endedAt: qualityResults.endedAt,
};

export interface RunAnswer {
  id: string;
  tableId: string;
  trigger: string;
  status: string;
  startedAt: Date;
  endedAt: Date | null;
  error: string | null;
  results: Array<Awaited<ReturnType<typeof readResults>>[number]>;
}

function readResults(db: Db, companyId: string, runIds: string[]) {
  return db
    .select({ runId: qualityResults.runId, ...resultColumns })
    .from(qualityResults)
    .where(and(eq(qualityResults.companyId, companyId), inArray(qualityResults.runId, runIds)))
    .orderBy(asc(qualityResults.ruleName), asc(qualityResults.ruleId));
}

/** One run with its results. */
export async function findRun(db: Db, companyId: string, runId: string): Promise<RunAnswer | null> {
  const [run] = await db
    .select({
      id: qualityRuns.id,
      tableId: qualityRuns.tableId,
      trigger: qualityRuns.trigger,
      status: qualityRuns.status,
      startedAt: qualityRuns.startedAt,
      endedAt: qualityRuns.endedAt,
      error: qualityRuns.error,
    })
    .from(qualityRuns)
    .where(and(eq(qualityRuns.companyId, companyId), eq(qualityRuns.id, runId)));
  if (!run) return null;
  return { ...run, results: await readResults(db, companyId, [run.id]) };
}

const runSummaryColumns = {
  id: qualityRuns.id,
  tableId: qualityRuns.tableId,
  trigger: qualityRuns.trigger,
  status: qualityRuns.status,
  startedAt: qualityRuns.startedAt,
  endedAt: qualityRuns.endedAt,
  error: qualityRuns.error,
};

/** A page of a table's runs, newest first, without their results; and how many it has. */
export async function tableRunsPage(db: Db, companyId: string, tableId: string, offset: number, limit: number) {
  const where = and(eq(qualityRuns.companyId, companyId), eq(qualityRuns.tableId, tableId));
  const [total] = await db.select({ n: count() }).from(qualityRuns).where(where);
  const rows = await db
    .select(runSummaryColumns)
    .from(qualityRuns)
    .where(where)
    .orderBy(desc(qualityRuns.startedAt), desc(qualityRuns.id))
    .offset(offset)
    .limit(limit);
  return { rows, count: Number(total?.n ?? 0) };
}

/** One rule's result in one run: the sample it answers, or null when the run (of this company) has no result of that rule. */
export async function findResult(db: Db, companyId: string, runId: string, ruleId: string) {
  const [result] = await db
    .select({ ruleName: qualityResults.ruleName, sample: qualityResults.sample })
    .from(qualityResults)
    .where(and(eq(qualityResults.companyId, companyId), eq(qualityResults.runId, runId), eq(qualityResults.ruleId, ruleId)));
  return result ?? null;
}
