import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, qualityResults, qualityRuns } from '../db/schema';
import type { ListSort } from '../../common/contract/routes';
import { orderedPage } from '../http/lists';
import { sortedOrder } from '../platform/list-sort';
import { resultColumns } from '../tables/quality';
import { companyRuns, findRun, newestRunsFirst, selectRuns } from './records';

/** Pages of the job runs, and of the data-quality results a run kept (docs/api/workflows.md). */

/** The columns the run lists sort by (the contract's sortable fields); (company_id, column) indexes serve them (migration 0015). */
const runSortColumns = {
  queuedAt: jobRuns.queuedAt,
  status: jobRuns.status,
  trigger: jobRuns.trigger,
  startedAt: jobRuns.startedAt,
  endedAt: jobRuns.endedAt,
  attempt: jobRuns.attempt,
};

/** One page of the company's runs that `where` holds for, newest first unless `sort` says. */
export function runsPage(db: Db, companyId: string, where: SQL | undefined, offset: number, limit: number, sort?: ListSort) {
  const order = sortedOrder(sort, runSortColumns, jobRuns.id, newestRunsFirst);
  return orderedPage(db, { select: () => selectRuns(db), where: companyRuns(companyId, where), order, countFrom: jobRuns }, offset, limit);
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
          .select({ id: qualityResults.id, tableId: qualityResults.tableId, qualityRunId: qualityResults.runId, ...resultColumns })
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
