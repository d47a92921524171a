import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import { connectionTypeOf } from '../../common/connections';
import type { QualityFunction } from '../../common/schemas/quality';
import type { Secrets } from '../auth/secrets';
import { connectionConfig } from '../connections/records';
import type { ConnectorRegistry } from '../connectors/registry';
import { ConnectorError, isTableSource } from '../connectors/types';
import type { Db } from '../db/client';
import { qualityResults, qualityRules, qualityRuns } from '../db/schema';
import { badRequest } from '../http/errors';
import { evaluateRules } from '../quality/evaluate';
import { keepFailingRows, sampleRowsOf } from '../quality/failing-rows';
import { SAMPLE_ROWS } from '../quality/samples';
import type { RunOutcome } from '../quality/rules';
import { findRun, rulesOf, selectRules, type RunAnswer } from './quality';
import { findTable, wholeDictionary } from './records';

export interface CheckRequest {
  companyId: string;
  tableId: string;
  /** The rules to run; the table's active rules when absent. */
  ruleIds?: string[];
  /** Every row, for a table with a watermark column ("Full check"); otherwise row rules read the rows past their last result. */
  full?: boolean;
  /** 'manual' for "Run checks now", 'workflow' for a quality task of a workflow run. */
  trigger: 'manual' | 'workflow';
  /** The job run it belongs to. */
  jobRunId?: string | null;
  userId: string | null;
}

export interface CheckOutcome {
  run: RunAnswer;
  outcome: RunOutcome;
  tableName: string;
}

/**
 * Runs a table's data-quality rules against its source and stores the run whole when it ends:
 * one run row, a result per rule and the failing rows each rule read, in one transaction (a run that could not be measured keeps
 * its error and no partial results). `audit` writes the caller's audit entry in that transaction.
 */
export async function runTableChecks(
  deps: { db: Db; secrets: Secrets; connectors: ConnectorRegistry },
  request: CheckRequest,
  audit?: (tx: Db, runId: string, outcome: RunOutcome, rules: number) => Promise<void>,
): Promise<CheckOutcome> {
  const { db, secrets, connectors } = deps;
  const { companyId } = request;
  const table = await findTable(db, companyId, request.tableId);
  const wanted = request.ruleIds;
  const rules = await selectRules(db)
    .where(rulesOf(companyId, table.id, wanted ? inArray(qualityRules.id, wanted) : eq(qualityRules.isActive, true)))
    .orderBy(asc(qualityRules.createdAt));
  if (wanted && rules.length !== new Set(wanted).size) throw badRequest('ruleIds: not every id is a rule of this table');
  if (rules.length === 0) throw badRequest(`The table "${table.name}" has no active data-quality rules to run`);
  const config = await connectionConfig(db, secrets, companyId, table.connectionId);
  if (!config.isActive) throw badRequest(`The connection "${table.connectionName}" is deactivated; activate it first`);
  const dictionary = await wholeDictionary(db, companyId, table.id);
  const sampleRows = await sampleRowsOf(db, companyId);
  const watermark = table.watermarkColumn
    ? {
        column: table.watermarkColumn,
        after: request.full ? new Map<string, string>() : await ruleStarts(db, companyId, table.watermarkColumn, rules),
      }
    : undefined;
  const startedAt = new Date();
  let outcome: RunOutcome;
  try {
    outcome = await connectors.use(config, (connector) => {
      if (!isTableSource(connector))
        throw new ConnectorError(`A ${connectionTypeOf(config.type)?.label ?? config.type} connection has no tables to check`, 'invalid');
      return evaluateRules(connector, {
        endpoint: table.endpoint,
        rules: rules.map((r) => ({
          id: r.id,
          name: r.name,
          functionName: r.functionName as QualityFunction,
          columnName: r.columnName,
          params: r.params,
          severity: r.severity as 'fail' | 'warn',
          tolerance: r.tolerance,
          samplePercent: r.samplePercent,
        })),
        ...(watermark ? { watermark } : {}),
        columns: dictionary.filter((c) => c.present).map((c) => ({ name: c.name, sensitivity: c.sensitivity })),
        sampleRows,
      });
    });
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    outcome = { status: 'error', error: err.message, results: [] };
  }
  const endedAt = new Date();
  const runId = await db.transaction(async (tx) => {
    const [run] = await tx
      .insert(qualityRuns)
      .values({
        companyId,
        tableId: table.id,
        jobRunId: request.jobRunId ?? null,
        trigger: request.trigger,
        status: outcome.status,
        error: outcome.error ?? null,
        startedAt,
        endedAt,
        createdBy: request.userId,
      })
      .returning({ id: qualityRuns.id });
    if (outcome.results.length > 0) {
      const byId = new Map(rules.map((r) => [r.id, r]));
      await tx.insert(qualityResults).values(
        outcome.results.map((result) => {
          const rule = byId.get(result.ruleId)!;
          return {
            companyId,
            runId: run.id,
            ruleId: rule.id,
            tableId: table.id,
            ruleName: rule.name,
            functionName: rule.functionName,
            columnName: rule.columnName,
            severity: rule.severity,
            status: result.status,
            observed: result.observed,
            rowsScanned: result.rowsScanned,
            rowsFailed: result.rowsFailed,
            failedShare: result.failedShare,
            // The result answers the first rows; the run keeps all it read, below.
            sample: result.sample.slice(0, SAMPLE_ROWS),
            query: result.query,
            message: result.message,
            coveredColumn: result.coveredColumn,
            coveredAfter: result.coveredAfter,
            coveredUpTo: result.coveredUpTo,
            samplePercent: result.samplePercent,
            advice: result.advice,
            startedAt: result.startedAt,
            endedAt: result.endedAt,
          };
        }),
      );
      await keepFailingRows(tx, companyId, run.id, outcome.results);
    }
    await audit?.(tx, run.id, outcome, rules.length);
    return run.id;
  });
  return { run: (await findRun(db, companyId, runId))!, outcome, tableName: table.name };
}

/**
 * Where each rule's incremental run starts: the watermark its newest measured result covered up
 * to, by the table's watermark column as it is now (a result by another column says nothing of
 * this one's rows). A rule with none, or whose last result could not be measured, reads every row.
 */
async function ruleStarts(db: Db, companyId: string, column: string, rules: ReadonlyArray<{ id: string }>): Promise<Map<string, string>> {
  const starts = new Map<string, string>();
  if (rules.length === 0) return starts;
  const newest = await db
    .selectDistinctOn([qualityResults.ruleId], {
      ruleId: qualityResults.ruleId,
      column: qualityResults.coveredColumn,
      upTo: qualityResults.coveredUpTo,
    })
    .from(qualityResults)
    .where(
      and(
        eq(qualityResults.companyId, companyId),
        inArray(
          qualityResults.ruleId,
          rules.map((rule) => rule.id),
        ),
        ne(qualityResults.status, 'error'),
      ),
    )
    .orderBy(qualityResults.ruleId, desc(qualityResults.endedAt));
  for (const last of newest) if (last.column === column && last.upTo !== null) starts.set(last.ruleId, last.upTo);
  return starts;
}
