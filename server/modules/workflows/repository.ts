import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { connections, jobRuns, sourceDestinations, workflows } from '../../db/schema';
import { counted, filterBody, idChoiceFilter, orderedPage, searching, type Card } from '../../http/lists';
import { nextRunAt } from '../../jobs/schedule';
import type { EntityRepository } from '../../platform/entity-routes';
import type { ListSort } from '../../../common/contract/routes';
import { sortedOrder } from '../../platform/list-sort';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../../platform/owned-records';
import { companyWorkflows, findWorkflowSelected, selectWorkflows, toWorkflowRow, type WorkflowRow } from '../../workflows/records';

export const WORKFLOW_NAME_TAKEN = 'name: a workflow with this name already exists';

export const workflowFilterBody = filterBody({ connection: idChoiceFilter, ...ownedFilterFields });
type WorkflowFilter = Partial<z.output<typeof workflowFilterBody>>;

/** Its name and description hold the text. */
export const workflowSearch = (text: string) => searching([workflows.name, workflows.description], text);

/** A workflow runs between the connections of its pair: the connection filter finds it by either. */
function filterConditions(filter: WorkflowFilter): SQL | undefined {
  const connection = filter.connection ?? [];
  return and(
    connection.length > 0
      ? sql`exists (select 1 from ${sourceDestinations} p where p.company_id = ${workflows.companyId} and p.id = ${workflows.pairId} and (${inArray(sql`p.source_id`, connection)} or ${inArray(sql`p.destination_id`, connection)}))`
      : undefined,
    ownedConditions(workflows, filter),
    workflowSearch(filter.search ?? ''),
  );
}

/** The columns the workflow lists sort by (the contract's sortable fields). */
const sortColumns = {
  createdAt: workflows.createdAt,
  name: sql`lower(${workflows.name})`,
  engine: sql`case when ${workflows.databricksConnectionId} is null then 'local' else 'databricks' end`,
  isActive: workflows.isActive,
  updatedAt: workflows.updatedAt,
};

/** One page of the company's workflows that `where` holds for, newest first unless `sort` says. */
export async function workflowPage(db: Db, companyId: string, where: SQL | undefined, offset: number, limit: number, sort?: ListSort) {
  const answer = await orderedPage(
    db,
    {
      select: () => selectWorkflows(db),
      where: companyWorkflows(companyId, where),
      order: sortedOrder(sort, sortColumns, workflows.id, [desc(workflows.createdAt), desc(workflows.id)]),
      countFrom: workflows,
    },
    offset,
    limit,
  );
  return { ...answer, rows: answer.rows.map((row) => toWorkflowRow(row, nextRunAt)) };
}

/** One workflow as the API answers it; a missing one is "Workflow not found". */
export const readWorkflow = async (db: Db, companyId: string, id: string) =>
  toWorkflowRow(await findWorkflowSelected(db, companyId, id), nextRunAt);

/** The connections of the company's pairs that a workflow runs between, the creators, the workspaces. */
async function filterChoices(db: Db, companyId: string) {
  const [connection, owned] = await Promise.all([
    db
      .select({ id: connections.id, name: connections.name })
      .from(connections)
      .where(
        and(
          eq(connections.companyId, companyId),
          sql`exists (select 1 from ${workflows} w join ${sourceDestinations} p on p.company_id = w.company_id and p.id = w.pair_id
            where w.company_id = ${companyId} and (p.source_id = ${connections.id} or p.destination_id = ${connections.id}))`,
        ),
      )
      .orderBy(asc(sql`lower(${connections.name})`)),
    ownedChoices(db, companyId, workflows),
  ]);
  return { connection, ...owned };
}

/** Counts of the workflows, and of their runs today and now. */
async function workflowCards(db: Db, companyId: string): Promise<Card[]> {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  const [[flows], [runs]] = await Promise.all([
    db
      .select({
        total: counted(),
        active: counted(sql`${workflows.isActive}`),
        scheduled: counted(sql`${workflows.isActive} and ${workflows.scheduleCron} is not null`),
      })
      .from(workflows)
      .where(eq(workflows.companyId, companyId)),
    db
      .select({
        today: counted(sql`${jobRuns.queuedAt} >= ${today}`),
        failedToday: counted(sql`${jobRuns.queuedAt} >= ${today} and ${jobRuns.status} in ('failed', 'timed_out')`),
        running: counted(sql`${jobRuns.status} in ('queued', 'running')`),
      })
      .from(jobRuns)
      .where(eq(jobRuns.companyId, companyId)),
  ]);
  return [
    { key: 'total', label: 'Workflows', value: flows.total },
    { key: 'active', label: 'Active', value: flows.active },
    { key: 'scheduled', label: 'Scheduled', value: flows.scheduled },
    { key: 'runsToday', label: 'Runs today', value: runs.today, link: '/job-runs' },
    { key: 'failedToday', label: 'Failed today', value: runs.failedToday, link: '/job-runs' },
    { key: 'running', label: 'Queued or running', value: runs.running, link: '/job-runs' },
  ];
}

/** How workflows are read: the caller's company's only, newest first, each with its pair, creator, last and next run. */
export const workflowRepository: EntityRepository<WorkflowRow> = {
  list: ({ db, auth }, { offset, limit }) => workflowPage(db, auth.companyId, undefined, offset, limit),
  search: ({ db, auth }, text, { offset, limit }) => workflowPage(db, auth.companyId, workflowSearch(text), offset, limit),
  filter: ({ db, auth }, body, { offset, limit, sort }) =>
    workflowPage(db, auth.companyId, filterConditions(body as WorkflowFilter), offset, limit, sort),
  filterProps: ({ db, auth }) => filterChoices(db, auth.companyId),
  cards: async ({ db, auth }) => ({ cards: await workflowCards(db, auth.companyId) }),
  one: ({ db, auth }, id) => readWorkflow(db, auth.companyId, id),
};
