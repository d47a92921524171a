import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import {
  accessEvents,
  connections,
  dataTables,
  jobRunSteps,
  jobRuns,
  qualityResults,
  qualityRuns,
  sessions,
  systemAudits,
  users,
  workflows,
} from '../db/schema';
import { RUN_STATUSES } from '../../common/schemas/workflows';
import type { Period } from './period';

/**
 * The figures a report sums up, read from the company's own tables for one period. Every query
 * is bounded by the company and the period and reads an index that starts with company_id
 * (then the time column where the table has one), so a report costs the period's rows, not the
 * company's history.
 */

export const QUALITY_STATUSES = ['passed', 'warned', 'failed', 'error'] as const;
/** How many of the failing workflows and failed checks a report names. */
export const TOP_FAILING_WORKFLOWS = 5;
export const TOP_FAILED_CHECKS = 10;
const FAILED_RUN_STATUSES = ['failed', 'timed_out'];
const FAILED_CHECK_STATUSES = ['failed', 'error'];

export interface Growth {
  /** How many existed at the end of the period. */
  total: number;
  /** How many of them were added during it. */
  added: number;
}

export interface ReportFigures {
  runs: {
    total: number;
    byStatus: Record<(typeof RUN_STATUSES)[number], number>;
    /** Failed and timed-out runs. */
    failed: number;
    /** Rows written by the copy tasks that succeeded. */
    rowsCopied: number;
    failingWorkflows: Array<{ workflowId: string; name: string; failures: number }>;
  };
  quality: {
    runs: number;
    runsByStatus: Record<(typeof QUALITY_STATUSES)[number], number>;
    checks: number;
    checksByResult: Record<(typeof QUALITY_STATUSES)[number], number>;
    /** Failed or unmeasurable checks of rules, by table and rule, most first. */
    failedChecks: Array<{ tableId: string; table: string; rule: string; column: string | null; failures: number }>;
  };
  security: {
    signIns: number;
    failedSignIns: number;
    /** Attempts refused while an account or address was slowed down (too many failures). */
    blocked: number;
    failedCodes: number;
    /** Fully signed-in sessions opened. */
    newSessions: number;
    impersonations: number;
    /** Distinct addresses security events came from. */
    addresses: number;
  };
  usage: {
    /** Distinct users who signed in. */
    activeUsers: number;
    /** Users invited. */
    newUsers: number;
    connections: Growth;
    tables: Growth;
    workflows: Growth;
    /** Changes written to the system audit. */
    changes: number;
    /** Changes made with API keys (reads with keys are not recorded). */
    apiKeyChanges: number;
    /** Runs started with API keys. */
    apiKeyRuns: number;
  };
}

const n = (expression: SQL) => sql<number>`${expression}`.mapWith(Number);
const within = (column: PgColumn, period: Period) => and(gte(column, period.start), lt(column, period.end));
const tally = <K extends string>(keys: readonly K[], rows: Array<{ status: string; n: number }>): Record<K, number> =>
  Object.fromEntries(keys.map((key) => [key, rows.find((row) => row.status === key)?.n ?? 0])) as Record<K, number>;

export async function reportFigures(db: Db, companyId: string, period: Period): Promise<ReportFigures> {
  const runsOfPeriod = and(eq(jobRuns.companyId, companyId), within(jobRuns.queuedAt, period));
  const qualityRunsOfPeriod = and(eq(qualityRuns.companyId, companyId), within(qualityRuns.startedAt, period));
  /** Total at the end of the period and added during it, from a (company_id, created_at) index. */
  const growth = (table: typeof connections | typeof dataTables | typeof workflows) =>
    db
      .select({ total: count(), added: n(sql`count(*) filter (where ${table.createdAt} >= ${period.start})`) })
      .from(table)
      .where(and(eq(table.companyId, companyId), lt(table.createdAt, period.end)));

  const [
    runsByStatus,
    [copied],
    failingWorkflows,
    qualityByStatus,
    checksByResult,
    failedChecks,
    [events],
    [opened],
    [people],
    [connectionGrowth],
    [tableGrowth],
    [workflowGrowth],
    [audits],
    [keyRuns],
  ] = await Promise.all([
    db.select({ status: jobRuns.status, n: count() }).from(jobRuns).where(runsOfPeriod).groupBy(jobRuns.status),
    db
      .select({ rows: n(sql`coalesce(sum(${jobRunSteps.rowsWritten}), 0)`) })
      .from(jobRuns)
      .innerJoin(jobRunSteps, and(eq(jobRunSteps.companyId, jobRuns.companyId), eq(jobRunSteps.runId, jobRuns.id)))
      .where(and(runsOfPeriod, eq(jobRunSteps.type, 'copy'), eq(jobRunSteps.status, 'succeeded'))),
    db
      .select({ workflowId: jobRuns.workflowId, name: workflows.name, failures: count() })
      .from(jobRuns)
      .leftJoin(workflows, and(eq(workflows.companyId, jobRuns.companyId), eq(workflows.id, jobRuns.workflowId)))
      .where(and(runsOfPeriod, inArray(jobRuns.status, FAILED_RUN_STATUSES)))
      .groupBy(jobRuns.workflowId, workflows.name)
      .orderBy(desc(count()), asc(workflows.name))
      .limit(TOP_FAILING_WORKFLOWS),
    db.select({ status: qualityRuns.status, n: count() }).from(qualityRuns).where(qualityRunsOfPeriod).groupBy(qualityRuns.status),
    db
      .select({ status: qualityResults.status, n: count() })
      .from(qualityRuns)
      .innerJoin(qualityResults, and(eq(qualityResults.companyId, qualityRuns.companyId), eq(qualityResults.runId, qualityRuns.id)))
      .where(qualityRunsOfPeriod)
      .groupBy(qualityResults.status),
    db
      .select({
        tableId: qualityResults.tableId,
        table: dataTables.name,
        rule: qualityResults.ruleName,
        column: qualityResults.columnName,
        failures: count(),
      })
      .from(qualityRuns)
      .innerJoin(qualityResults, and(eq(qualityResults.companyId, qualityRuns.companyId), eq(qualityResults.runId, qualityRuns.id)))
      .leftJoin(dataTables, and(eq(dataTables.companyId, qualityResults.companyId), eq(dataTables.id, qualityResults.tableId)))
      .where(and(qualityRunsOfPeriod, inArray(qualityResults.status, FAILED_CHECK_STATUSES)))
      .groupBy(qualityResults.tableId, dataTables.name, qualityResults.ruleName, qualityResults.columnName)
      .orderBy(desc(count()), asc(dataTables.name), asc(qualityResults.ruleName))
      .limit(TOP_FAILED_CHECKS),
    db
      .select({
        signIns: n(sql`count(*) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'success')`),
        failedSignIns: n(sql`count(*) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'failure')`),
        blocked: n(sql`count(*) filter (where ${accessEvents.status} = 'blocked')`),
        failedCodes: n(sql`count(*) filter (where ${accessEvents.event} = 'otp' and ${accessEvents.status} = 'failure')`),
        addresses: n(sql`count(distinct ${accessEvents.ip})`),
        activeUsers: n(
          sql`count(distinct ${accessEvents.userId}) filter (where ${accessEvents.event} = 'signin' and ${accessEvents.status} = 'success')`,
        ),
      })
      .from(accessEvents)
      .where(and(eq(accessEvents.companyId, companyId), within(accessEvents.createdAt, period))),
    db
      .select({ sessions: count(), impersonations: n(sql`count(*) filter (where ${sessions.impersonatorUserId} is not null)`) })
      .from(sessions)
      .where(and(eq(sessions.companyId, companyId), within(sessions.createdAt, period), eq(sessions.stage, 'full'))),
    db
      .select({ added: count() })
      .from(users)
      .where(and(eq(users.companyId, companyId), within(users.createdAt, period))),
    growth(connections),
    growth(dataTables),
    growth(workflows),
    db
      .select({ changes: count(), withKeys: n(sql`count(*) filter (where ${systemAudits.apiKeyId} is not null)`) })
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, companyId), within(systemAudits.createdAt, period))),
    db
      .select({ runs: count() })
      .from(jobRuns)
      .where(and(runsOfPeriod, isNotNull(jobRuns.apiKeyId))),
  ]);

  const byStatus = tally(RUN_STATUSES, runsByStatus);
  const checks = tally(QUALITY_STATUSES, checksByResult);
  return {
    runs: {
      total: runsByStatus.reduce((sum, row) => sum + row.n, 0),
      byStatus,
      failed: FAILED_RUN_STATUSES.reduce((sum, status) => sum + (byStatus[status as keyof typeof byStatus] ?? 0), 0),
      rowsCopied: copied?.rows ?? 0,
      failingWorkflows: failingWorkflows.map((row) => ({
        workflowId: row.workflowId,
        name: row.name ?? 'A deleted workflow',
        failures: row.failures,
      })),
    },
    quality: {
      runs: qualityByStatus.reduce((sum, row) => sum + row.n, 0),
      runsByStatus: tally(QUALITY_STATUSES, qualityByStatus),
      checks: checksByResult.reduce((sum, row) => sum + row.n, 0),
      checksByResult: checks,
      failedChecks: failedChecks.map((row) => ({
        tableId: row.tableId,
        table: row.table ?? 'A deleted table',
        rule: row.rule,
        column: row.column,
        failures: row.failures,
      })),
    },
    security: {
      signIns: events?.signIns ?? 0,
      failedSignIns: events?.failedSignIns ?? 0,
      blocked: events?.blocked ?? 0,
      failedCodes: events?.failedCodes ?? 0,
      newSessions: opened?.sessions ?? 0,
      impersonations: opened?.impersonations ?? 0,
      addresses: events?.addresses ?? 0,
    },
    usage: {
      activeUsers: events?.activeUsers ?? 0,
      newUsers: people?.added ?? 0,
      connections: { total: connectionGrowth?.total ?? 0, added: connectionGrowth?.added ?? 0 },
      tables: { total: tableGrowth?.total ?? 0, added: tableGrowth?.added ?? 0 },
      workflows: { total: workflowGrowth?.total ?? 0, added: workflowGrowth?.added ?? 0 },
      changes: audits?.changes ?? 0,
      apiKeyChanges: audits?.withKeys ?? 0,
      apiKeyRuns: keyRuns?.runs ?? 0,
    },
  };
}

export interface HeadlineFigure {
  key: string;
  label: string;
  value: number;
}

/** The few figures a list of reports shows for each (the shape of the dashboard's cards). */
export function headlineOf(figures: ReportFigures): HeadlineFigure[] {
  return [
    { key: 'runs', label: 'Job runs', value: figures.runs.total },
    { key: 'failedRuns', label: 'Failed runs', value: figures.runs.failed },
    { key: 'rowsCopied', label: 'Rows copied', value: figures.runs.rowsCopied },
    { key: 'failedChecks', label: 'Failed checks', value: figures.quality.checksByResult.failed + figures.quality.checksByResult.error },
    { key: 'failedSignIns', label: 'Failed sign-ins', value: figures.security.failedSignIns },
    { key: 'activeUsers', label: 'Active users', value: figures.usage.activeUsers },
  ];
}
