import type { FastifyInstance } from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { answer, listAnswer } from '../../../common/contract/answers';
import { jobRunDetail, jobRunFilterPropsAnswer, jobRunRow, jobRunsContract, runQualityResult } from '../../../common/contract/job-runs';
import { RUN_STATUSES } from '../../../common/schemas/workflows';
import { recordAudit } from '../../audit';
import { jobRuns, qualityResults, workflows } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { anyOf, bodyPage, endDateFilter, filterBody, idChoiceFilter, startDateFilter, textChoiceFilter, within } from '../../http/lists';
import { limitParam, offsetParam, uuidParam } from '../../http/schemas';
import { actionRoute } from '../../platform/action-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { registerFindRoute, registerReadRoute } from '../../platform/list-routes';
import { findRun, findWorkflowSelected } from '../../workflows/records';
import { resultsOfRun, runResultsPage, runsPage } from '../../workflows/run-pages';
import { runStatusChoices } from '../../workflows/run-statuses';

const RUN_TAGS = ['Job runs'];
const { actions } = jobRunsContract;
const idParams = z.object({ id: uuidParam });
const statusFilter = textChoiceFilter.refine((values) => values.every((v) => (RUN_STATUSES as readonly string[]).includes(v)), {
  message: `must be one of ${RUN_STATUSES.join(', ')}`,
});
const runFilter = filterBody({ status: statusFilter, startDate: startDateFilter, endDate: endDateFilter, workflow: idChoiceFilter });
const runSortFields = (jobRunsContract.fields ?? []).filter((field) => field.sortable).map((field) => field.source) as [
  string,
  ...string[],
];
const runFilterQuery = z.object({
  workflowId: uuidParam.optional(),
  offset: offsetParam.default(0),
  limit: limitParam.default(10),
  // The order asked for (the contract's sortable fields); newest first without it.
  sort: z.enum(runSortFields, { error: `must be one of ${runSortFields.join(', ')}` }).optional(),
  order: z.preprocess(
    (value) => (typeof value === 'string' ? value.toUpperCase() : value),
    z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' }).optional(),
  ),
});
const qualityFilter = filterBody({ qualityName: textChoiceFilter, columnName: textChoiceFilter });
const runQuery = z.object({ jobRunTrackerId: uuidParam });
const pagedQuery = z.object({ offset: offsetParam.default(0), limit: limitParam.default(10) });

/** The rows hold Dates and their statuses and triggers as plain strings, so the handlers' values are not typed by the schemas. */
const runList: ZodType<unknown> = listAnswer(jobRunRow);
const runAnswer: ZodType<unknown> = answer(jobRunDetail);
const qualityResultList: ZodType<unknown> = listAnswer(runQualityResult);

/**
 * The runs of the workflows (the job run tracker), newest first, and the data-quality results
 * their quality tasks kept. They are guarded by the workflows policy and listed as job runs.
 * Served from the contract's actions: a run's cancel `/jobRunTracker/{id}/cancel` and the choices
 * of its quality filter `GET /dataQuality/filters`.
 */
export function registerRunRoutes(app: FastifyInstance, allowed: (action: 'read' | 'update') => RouteBase) {
  const { db, runner } = app.ctx;
  const read = { ...allowed('read'), tags: RUN_TAGS };

  answerRoute(
    app,
    read,
    {
      method: 'GET',
      path: '/jobRunTracker/:workflowId/:offset/:limit',
      summary: "A workflow's runs, newest first",
      params: z.object({ workflowId: uuidParam, offset: offsetParam, limit: limitParam }),
      answer: runList,
    },
    async ({ auth: { companyId }, params: { workflowId, offset, limit } }) => {
      await findWorkflowSelected(db, companyId, workflowId);
      return { message: 'Job runs', data: await runsPage(db, companyId, eq(jobRuns.workflowId, workflowId), offset, limit) };
    },
  );

  answerRoute(
    app,
    read,
    {
      method: 'POST',
      path: '/jobRunTracker/filters',
      summary: 'Filter and sort the runs of a workflow, or of every workflow',
      querystring: runFilterQuery,
      body: runFilter,
      answer: runList,
    },
    async ({ auth: { companyId }, query, body: f }) => {
      const { workflowId } = query;
      const { offset, limit } = bodyPage(f, query);
      if (workflowId) await findWorkflowSelected(db, companyId, workflowId);
      const where = and(
        workflowId ? eq(jobRuns.workflowId, workflowId) : anyOf(jobRuns.workflowId, f.workflow ?? []),
        anyOf(jobRuns.status, f.status ?? []),
        within(jobRuns.queuedAt, f.startDate ?? null, f.endDate ?? null),
      );
      const sort = query.sort ? { field: query.sort, order: query.order ?? 'DESC' } : undefined;
      return { message: 'Job runs', data: await runsPage(db, companyId, where, offset, limit, sort) };
    },
  );

  registerReadRoute(app, read, {
    path: '/jobRunTracker/filters/props',
    summary: 'Choices of the job-run filters',
    answer: jobRunFilterPropsAnswer,
    message: 'Job-run filters',
    data: async (companyId) => {
      const workflow = await db
        .select({ id: workflows.id, name: workflows.name })
        .from(workflows)
        .where(eq(workflows.companyId, companyId))
        .orderBy(asc(sql`lower(${workflows.name})`));
      return { workflow, status: runStatusChoices() };
    },
  });

  registerFindRoute(app, read, {
    path: '/jobRunTracker/:id',
    summary: 'One run with its steps and logs',
    answer: runAnswer,
    message: 'Job run',
    find: (companyId, id) => findRun(db, companyId, id),
  });

  actionRoute(app, { ...allowed('update'), tags: RUN_TAGS }, actions.cancel, async ({ auth, params, request }) => {
    const run = await findRun(db, auth.companyId, params.id);
    if (!['queued', 'running'].includes(run.status)) throw badRequest(`This run has already ended (${run.status.replace('_', ' ')})`);
    await runner.cancel(auth.companyId, run.id);
    await recordAudit(db, request, {
      companyId: auth.companyId,
      model: 'job_run',
      operation: 'cancel',
      recordId: run.id,
      changes: { before: { status: run.status } },
    });
    return { message: `Run of "${run.workflowName}" is stopping`, data: await findRun(db, auth.companyId, run.id) };
  });

  // ---- A run's data-quality results -------------------------------------------------------------------

  answerRoute(
    app,
    read,
    {
      method: 'GET',
      path: '/jobRunTracker/:id/dataQuality',
      summary: "The data-quality results a run's quality tasks kept",
      params: idParams,
      querystring: pagedQuery,
      answer: qualityResultList,
    },
    async ({ auth, params, query }) => ({
      message: 'Data-quality results',
      data: await runResultsPage(db, auth.companyId, params.id, undefined, query.offset, query.limit),
    }),
  );

  // The run is named in the query.
  actionRoute(app, read, actions.qualityChoices, async ({ auth: { companyId }, query }) => {
    const runId = query.jobRunTrackerId;
    await findRun(db, companyId, runId);
    const ofRun = resultsOfRun(companyId, runId);
    const [names, columns] = await Promise.all([
      db.selectDistinct({ name: qualityResults.ruleName }).from(qualityResults).where(ofRun).orderBy(asc(qualityResults.ruleName)),
      db
        .selectDistinct({ name: qualityResults.columnName })
        .from(qualityResults)
        .where(and(ofRun, sql`${qualityResults.columnName} is not null`))
        .orderBy(asc(qualityResults.columnName)),
    ]);
    return {
      message: 'Data-quality filters',
      data: {
        qualityName: names.map(({ name }) => ({ id: name, name })),
        columnName: columns.map(({ name }) => ({ id: name!, name: name! })),
      },
    };
  });

  answerRoute(
    app,
    read,
    {
      method: 'POST',
      path: '/dataQuality/filters',
      summary: "Filter a run's data-quality results",
      querystring: runQuery.extend(pagedQuery.shape),
      body: qualityFilter,
      answer: qualityResultList,
    },
    async ({ auth, query, body: f }) => {
      const where = and(anyOf(qualityResults.ruleName, f.qualityName ?? []), anyOf(qualityResults.columnName, f.columnName ?? []));
      const { offset, limit } = bodyPage(f, query);
      return {
        message: 'Data-quality results',
        data: await runResultsPage(db, auth.companyId, query.jobRunTrackerId, where, offset, limit),
      };
    },
  );
}
