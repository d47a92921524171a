import { and, eq, inArray, isNotNull, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { serviceSettingsSchema } from '../../common/settings';
import { recordAudit } from '../audit';
import { deleteFailingRows } from '../quality/failing-rows';
import type { Db } from '../db/client';
import { asSystem, withTenant } from '../db/tenant-scope';
import { accessEvents, companySettings, jobRuns, jobRunSteps, qualityResults, qualityRuns, systemAudits } from '../db/schema';

/**
 * The retention of a company's service settings: system audits and security access events older
 * than `auditRetentionDays`, and ended job runs (with their steps, and the data-quality runs,
 * results and failing rows they made) older than `runRetentionDays`, are deleted, as are the
 * data-quality runs started by hand that ended before then (with their results and failing rows). Companies that keep them forever
 * (null, the default) are not touched. Rows go in batches, each its own statement (runs with their
 * dependants in one transaction per batch), so the embedded database, which runs one statement at
 * a time, keeps answering requests in between.
 */

export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;
export const RETENTION_BATCH_SIZE = 2000;
/**
 * The row of company_settings in which the servers sharing a database claim a company's next pass
 * (not a settings group: the settings routes neither show nor write it).
 */
export const RETENTION_CLAIM_KEY = 'retention-pass';
/** A claim's interval is this much shorter, so that the server that claimed finds it due at its next tick. */
const CLAIM_SLACK_MS = 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const LIVE_RUN_STATUSES = ['queued', 'running'];

export interface PurgeCounts {
  audits: number;
  accessEvents: number;
  runs: number;
  runSteps: number;
  qualityRuns: number;
  qualityResults: number;
  qualityFailingRows: number;
}

export interface PurgeReport extends PurgeCounts {
  /** Companies with a retention set. */
  companies: number;
  /** Of them, those another server's pass had claimed (claimForMs), left to it. */
  claimedElsewhere: number;
}

export interface PurgeOptions {
  now?: Date;
  batchSize?: number;
  /** Asked between batches; true stops the pass (the server is shutting down). */
  stopping?: () => boolean;
  /**
   * Passes of servers sharing the database: a company is purged only by the server that claims
   * it, for this long (its interval); the others skip it until then. Without it, every call purges.
   */
  claimForMs?: number;
}

const emptyCounts = (): PurgeCounts => ({
  audits: 0,
  accessEvents: 0,
  runs: 0,
  runSteps: 0,
  qualityRuns: 0,
  qualityResults: 0,
  qualityFailingRows: 0,
});

/** Lets the requests waiting for the database go first. */
const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

interface Retention {
  companyId: string;
  auditDays: number | null;
  runDays: number | null;
}

async function retentions(db: Db): Promise<Retention[]> {
  const rows = await db
    .select({
      companyId: companySettings.companyId,
      audit: sql<unknown>`${companySettings.values} -> 'auditRetentionDays'`,
      run: sql<unknown>`${companySettings.values} -> 'runRetentionDays'`,
    })
    .from(companySettings)
    .where(eq(companySettings.key, 'service'));
  const days = (value: unknown, rule: typeof serviceSettingsSchema.shape.auditRetentionDays) => {
    const parsed = rule.safeParse(value ?? null);
    return parsed.success ? parsed.data : null;
  };
  return rows
    .map((row) => ({
      companyId: row.companyId,
      auditDays: days(row.audit, serviceSettingsSchema.shape.auditRetentionDays),
      runDays: days(row.run, serviceSettingsSchema.shape.runRetentionDays),
    }))
    .filter((row) => row.auditDays !== null || row.runDays !== null);
}

/** Deletes batch after batch until one comes back short; the number deleted. */
async function inBatches(batchSize: number, options: PurgeOptions, deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted < batchSize || options.stopping?.()) return total;
    await yieldToOthers();
  }
}

async function purgeAudits(
  db: Db,
  companyId: string,
  cutoff: Date,
  batchSize: number,
  options: PurgeOptions,
): Promise<Pick<PurgeCounts, 'audits' | 'accessEvents'>> {
  const audits = await inBatches(batchSize, options, async () => {
    const batch = db
      .select({ id: systemAudits.id })
      .from(systemAudits)
      .where(and(eq(systemAudits.companyId, companyId), lt(systemAudits.createdAt, cutoff)))
      .limit(batchSize);
    const deleted = await db
      .delete(systemAudits)
      .where(and(eq(systemAudits.companyId, companyId), inArray(systemAudits.id, batch)))
      .returning({ id: systemAudits.id });
    return deleted.length;
  });
  const events = await inBatches(batchSize, options, async () => {
    const batch = db
      .select({ id: accessEvents.id })
      .from(accessEvents)
      .where(and(eq(accessEvents.companyId, companyId), lt(accessEvents.createdAt, cutoff)))
      .limit(batchSize);
    const deleted = await db
      .delete(accessEvents)
      .where(and(eq(accessEvents.companyId, companyId), inArray(accessEvents.id, batch)))
      .returning({ id: accessEvents.id });
    return deleted.length;
  });
  return { audits, accessEvents: events };
}

async function purgeRuns(
  db: Db,
  companyId: string,
  cutoff: Date,
  batchSize: number,
  options: PurgeOptions,
): Promise<Pick<PurgeCounts, 'runs' | 'runSteps' | 'qualityRuns' | 'qualityResults' | 'qualityFailingRows'>> {
  const counts = { runs: 0, runSteps: 0, qualityRuns: 0, qualityResults: 0, qualityFailingRows: 0 };
  /** Deletes these data-quality runs with their results and failing rows. */
  const deleteChecks = async (tx: Db, checkIds: string[]) => {
    if (checkIds.length === 0) return;
    const results = await tx
      .delete(qualityResults)
      .where(and(eq(qualityResults.companyId, companyId), inArray(qualityResults.runId, checkIds)))
      .returning({ id: qualityResults.id });
    counts.qualityFailingRows += await deleteFailingRows(tx, companyId, checkIds);
    await tx.delete(qualityRuns).where(and(eq(qualityRuns.companyId, companyId), inArray(qualityRuns.id, checkIds)));
    counts.qualityResults += results.length;
    counts.qualityRuns += checkIds.length;
  };
  await inBatches(batchSize, options, async () => {
    // A run is queued before it ends: bounding queued_at too lets the (company, queued) index find them.
    const runs = await db
      .select({ id: jobRuns.id })
      .from(jobRuns)
      .where(
        and(
          eq(jobRuns.companyId, companyId),
          lt(jobRuns.queuedAt, cutoff),
          isNotNull(jobRuns.endedAt),
          lt(jobRuns.endedAt, cutoff),
          notInArray(jobRuns.status, LIVE_RUN_STATUSES),
        ),
      )
      .limit(batchSize);
    if (runs.length === 0) return 0;
    const runIds = runs.map((run) => run.id);
    await db.transaction(async (tx) => {
      const checks = await tx
        .select({ id: qualityRuns.id })
        .from(qualityRuns)
        .where(and(eq(qualityRuns.companyId, companyId), inArray(qualityRuns.jobRunId, runIds)));
      await deleteChecks(
        tx,
        checks.map((check) => check.id),
      );
      const steps = await tx
        .delete(jobRunSteps)
        .where(and(eq(jobRunSteps.companyId, companyId), inArray(jobRunSteps.runId, runIds)))
        .returning({ id: jobRunSteps.id });
      await tx.delete(jobRuns).where(and(eq(jobRuns.companyId, companyId), inArray(jobRuns.id, runIds)));
      counts.runSteps += steps.length;
      counts.runs += runIds.length;
    });
    return runIds.length;
  });
  // "Run checks now" runs belong to no job run: they go by their own end.
  await inBatches(batchSize, options, async () => {
    const checks = await db
      .select({ id: qualityRuns.id })
      .from(qualityRuns)
      .where(
        and(
          eq(qualityRuns.companyId, companyId),
          isNull(qualityRuns.jobRunId),
          isNotNull(qualityRuns.endedAt),
          lt(qualityRuns.endedAt, cutoff),
        ),
      )
      .limit(batchSize);
    if (checks.length > 0)
      await db.transaction((tx) =>
        deleteChecks(
          tx,
          checks.map((check) => check.id),
        ),
      );
    return checks.length;
  });
  return counts;
}

/**
 * One pass over every company with a retention set. Each company whose rows were deleted gets a
 * system-audit entry saying how many (an audit entry of its own retention is never older than it).
 */
export async function purgeExpiredRecords(db: Db, options: PurgeOptions = {}): Promise<PurgeReport> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const report: PurgeReport = { companies: 0, claimedElsewhere: 0, ...emptyCounts() };
  for (const retention of await asSystem("the retention purge looks at every company's settings", () => retentions(db))) {
    if (options.stopping?.()) break;
    report.companies += 1;
    await withTenant(retention.companyId, async () => {
      if (options.claimForMs !== undefined && !(await claimPass(db, retention.companyId, now, options.claimForMs))) {
        report.claimedElsewhere += 1;
        return;
      }
      await purgeCompany(db, retention, now, batchSize, options, report);
    });
  }
  return report;
}

/**
 * Claims this company's pass until `now + forMs`: true when no pass was claimed for now or later.
 * One statement: of servers claiming at once, the row's lock lets one insert or move it, and the
 * others then see it claimed. So each company is purged (and audited) once per interval, however
 * many servers run the timer.
 */
export async function claimPass(db: Db, companyId: string, now: Date, forMs: number): Promise<boolean> {
  const next = new Date(now.getTime() + Math.max(0, forMs - CLAIM_SLACK_MS)).toISOString();
  const claimed = await db
    .insert(companySettings)
    .values({ companyId, key: RETENTION_CLAIM_KEY, values: { nextPassAt: next } })
    .onConflictDoUpdate({
      target: [companySettings.companyId, companySettings.key],
      set: { values: { nextPassAt: next }, updatedAt: now },
      setWhere: sql`coalesce((${companySettings.values} ->> 'nextPassAt')::timestamptz, '-infinity') <= ${now.toISOString()}::timestamptz`,
    })
    .returning({ companyId: companySettings.companyId });
  return claimed.length > 0;
}

async function purgeCompany(
  db: Db,
  retention: Retention,
  now: Date,
  batchSize: number,
  options: PurgeOptions,
  report: PurgeReport,
): Promise<void> {
  const counts = emptyCounts();
  if (retention.auditDays !== null) {
    Object.assign(
      counts,
      await purgeAudits(db, retention.companyId, new Date(now.getTime() - retention.auditDays * DAY_MS), batchSize, options),
    );
  }
  if (retention.runDays !== null) {
    Object.assign(
      counts,
      await purgeRuns(db, retention.companyId, new Date(now.getTime() - retention.runDays * DAY_MS), batchSize, options),
    );
  }
  for (const key of Object.keys(counts) as (keyof PurgeCounts)[]) report[key] += counts[key];
  if (Object.values(counts).some((n) => n > 0)) {
    await recordAudit(db, null, {
      companyId: retention.companyId,
      model: 'settings',
      operation: 'retention_purge',
      recordId: 'service',
      changes: { ...counts, auditRetentionDays: retention.auditDays, runRetentionDays: retention.runDays },
    });
  }
}

export interface RetentionPurge {
  /** Stops the timer and waits for a pass under way to reach the end of its batch. */
  stop(): Promise<void>;
}

/**
 * Purges at start and then every hour, without keeping the process alive. Each server sharing the
 * database runs this timer; each company's pass is claimed (claimPass), so it runs once an hour.
 */
export function startRetentionPurge(db: Db, options: { intervalMs?: number; onError(error: Error): void }): RetentionPurge {
  let stopping = false;
  let running: Promise<void> | null = null;
  const interval = options.intervalMs ?? RETENTION_INTERVAL_MS;
  const pass = () => {
    if (running || stopping) return;
    running = purgeExpiredRecords(db, { stopping: () => stopping, claimForMs: interval })
      .then(() => undefined)
      .catch((error: Error) => options.onError(error))
      .finally(() => {
        running = null;
      });
  };
  const first = setTimeout(pass, 0);
  first.unref();
  const timer = setInterval(pass, interval);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
