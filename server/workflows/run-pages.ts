import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, qualityResults, qualityRuns } from '../db/schema';
import { orderedPage } from '../http/lists';
import { resultColumns } from '../tables/quality';
import { companyRuns, findRun, newestRunsFirst, selectRuns } from './records';

/** Pages of the job runs, and of the data-quality results a run kept (docs/api/workflows.md). */

/** One page of the company's runs that `where` holds for, newest first. */
export function runsPage(db: Db, companyId: string, where: SQL | undefined, offset: number, limit: number) {
  return orderedPage(
    db,
    { select: () => selectRuns(db), where: companyRuns(companyId, where), order: newestRunsFirst, countFrom: jobRuns },
    offset,
    limit,
  );
}

/** The data-quality results kept by the quality runs of job run `runId`. */
export const resultsOfRun = (companyId: string, runId: string) =>
  and(
    eq(qualityResults.companyId, companyId),
    sql`${qualityResults.runId} in (select q.id from ${qualityRuns} q where q.company_id = ${companyId} and q.job_run_id = ${runId})`,
  );

/** One page of a run's data-quality results that `where` holds for, by rule; a missing run is the 404. */
export async function runResultsPage(db: Db, companyId: string, runId: string, where: SQL | undefined, offset: number, limit: number) {
  await findRun(db, companyId, runId);
  return orderedPage(
    db,
    {
      select: () =>
        db
          .select({ id: qualityResults.id, tableId: qualityResults.tableId, ...resultColumns })
          .from(qualityResults)
          .$dynamic(),
      where: and(resultsOfRun(companyId, runId), where)!,
      order: [asc(qualityResults.ruleName), asc(qualityResults.id)],
      countFrom: qualityResults,
    },
    offset,
    limit,
  );
}
