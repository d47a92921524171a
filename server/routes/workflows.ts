import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { createWorkflowBody, RUN_STATUSES, updateWorkflowBody, type WorkflowTask } from '../../common/schemas/workflows';
import { answer, listAnswer } from '../../common/contract/answers';
import {
  databricksRunState,
  jobRunDetail,
  jobRunFilterPropsAnswer,
  jobRunRow,
  runQualityFilterPropsAnswer,
  runQualityResult,
} from '../../common/contract/job-runs';
import {
  gitRepositoryListing,
  workflowCardsAnswer,
  workflowCheck,
  workflowFilterPropsAnswer,
  workflowRow,
} from '../../common/contract/workflows';
import { recordAudit } from '../audit';
import { requireAuth } from '../auth/guard';
import { connectionConfig } from '../connections/records';
import { listBranches, listFilesAt, resolveCommit } from '../connectors/git';
import { isTableSource, type ConnectionConfig } from '../connectors/types';
import { connections, jobRuns, qualityResults, sourceDestinations, workflows } from '../db/schema';
import { badRequest } from '../http/errors';
import {
  anyOf,
  bodyPage,
  counted,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  orderedPage,
  searching,
  startDateFilter,
  textChoiceFilter,
  within,
  type Card,
} from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { databricksRunStatus } from '../jobs/databricks-engine';
import { gitOptions, repositoryFile } from '../jobs/tasks/repository';
import { liveWorkspaceId } from '../workspaces/records';
import { checkWorkflowReferences } from '../workflows/references';
import { companyWorkflows, findRun, findWorkflowSelected, selectWorkflows, toWorkflowRow } from '../workflows/records';
import { cronProblem, nextRunAt } from '../jobs/schedule';
import { assertWithinPlan } from '../subscription/limits';
import { registerActivationRoute } from '../platform/activation-route';
import { answerRoute } from '../platform/answer-route';
import { audited, auditedCreate, unlessTaken } from '../platform/audited';
import { registerFindRoute, registerListRoutes, registerReadRoute, type PagePlace } from '../platform/list-routes';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../platform/owned-records';
import { resultsOfRun, runResultsPage, runsPage } from '../workflows/run-pages';
import { runStatusChoices } from '../workflows/run-statuses';

const TAGS = ['Workflows'];
const RUN_TAGS = ['Job runs'];
const idParams = z.object({ id: uuidParam });
const read = { policy: ['workflows', 'read'] as const };
const update = { policy: ['workflows', 'update'] as const };
const readRuns = { config: read, tags: RUN_TAGS };

export const WORKFLOW_NAME_TAKEN = 'name: a workflow with this name already exists';

const workflowFilter = filterBody({ connection: idChoiceFilter, ...ownedFilterFields });

const statusFilter = textChoiceFilter.refine((values) => values.every((v) => (RUN_STATUSES as readonly string[]).includes(v)), {
  message: `must be one of ${RUN_STATUSES.join(', ')}`,
});
const runFilter = filterBody({ status: statusFilter, startDate: startDateFilter, endDate: endDateFilter, workflow: idChoiceFilter });
const runFilterQuery = z.object({ workflowId: uuidParam.optional(), offset: offsetParam.default(0), limit: limitParam.default(10) });
const qualityFilter = filterBody({ qualityName: textChoiceFilter, columnName: textChoiceFilter });
const runQuery = z.object({ jobRunTrackerId: uuidParam });
const pagedQuery = z.object({ offset: offsetParam.default(0), limit: limitParam.default(10) });

/**
 * The answers that hold workflows, runs and quality results, as the document and the test servers'
 * check read them. The rows hold Dates (written as the ISO strings the schemas name) and their
 * statuses, triggers and kinds as plain strings, so the handlers' values are not typed by them.
 */
const workflowList: ZodType<unknown> = listAnswer(workflowRow);
const workflowAnswer: ZodType<unknown> = answer(workflowRow);
const runList: ZodType<unknown> = listAnswer(jobRunRow);
const runAnswer: ZodType<unknown> = answer(jobRunDetail);
const qualityResultList: ZodType<unknown> = listAnswer(runQualityResult);

const workflowSearch = (text: string) => searching([workflows.name, workflows.description], text);

/** A workflow runs between the connections of its pair: the connection filter finds it by either. */
function workflowConditions(filter: z.output<typeof workflowFilter>): SQL | undefined {
  const connection = filter.connection ?? [];
  return and(
    connection.length > 0
      ? sql`exists (select 1 from ${sourceDestinations} p where p.company_id = ${workflows.companyId} and p.id = ${workflows.pairId} and (${inArray(sql`p.source_id`, connection)} or ${inArray(sql`p.destination_id`, connection)}))`
      : undefined,
    ownedConditions(workflows, filter),
    workflowSearch(filter.search ?? ''),
  );
}

/** The stored columns of a body's fields (only those given, for an edit). */
function storedFields(body: Partial<z.output<typeof createWorkflowBody>>) {
  const fields: Partial<typeof workflows.$inferInsert> = {};
  if (body.name !== undefined) fields.name = body.name;
  if (body.description !== undefined) fields.description = body.description;
  if (body.pairId !== undefined) fields.pairId = body.pairId;
  if (body.repositoryConnectionId !== undefined) fields.repositoryConnectionId = body.repositoryConnectionId || null;
  if (body.databricksConnectionId !== undefined) fields.databricksConnectionId = body.databricksConnectionId || null;
  if (body.databricksJobId !== undefined) fields.databricksJobId = body.databricksJobId || null;
  if (body.tasks !== undefined) fields.tasks = body.tasks as Array<Record<string, unknown>>;
  if (body.schedule !== undefined) {
    fields.scheduleCron = body.schedule?.cron ?? null;
    if (body.schedule) fields.scheduleTimezone = body.schedule.timezone;
  }
  if (body.retries !== undefined) {
    fields.maxRetries = body.retries.max;
    fields.retryBackoffSeconds = body.retries.backoffSeconds;
  }
  if (body.timeoutMinutes !== undefined) fields.timeoutMinutes = body.timeoutMinutes;
  if (body.concurrency !== undefined) fields.concurrency = body.concurrency;
  if (body.notifyOnFailure !== undefined)
    fields.notifyOnFailure = { ...body.notifyOnFailure, slackConnectionId: body.notifyOnFailure.slackConnectionId || null };
  return fields;
}

/**
 * Workflows, their runs (the job run tracker) and the repository files their SQL tasks read
 * (docs/api/workflows.md). Runs are queued on the server's JobRunner.
 */
export async function workflowRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets, connectors, runner, config } = api.ctx;

  const rowOf = async (companyId: string, id: string) => toWorkflowRow(await findWorkflowSelected(db, companyId, id), nextRunAt);

  const listOf = async (companyId: string, where: SQL | undefined, { offset, limit }: PagePlace) => {
    const answer = await orderedPage(
      db,
      {
        select: () => selectWorkflows(db),
        where: companyWorkflows(companyId, where),
        order: [desc(workflows.createdAt), desc(workflows.id)],
        countFrom: workflows,
      },
      offset,
      limit,
    );
    return { ...answer, rows: answer.rows.map((row) => toWorkflowRow(row, nextRunAt)) };
  };

  /** A body's schedule, checked as cron-parser reads it. */
  const checkSchedule = (schedule: { cron: string; timezone: string } | null | undefined) => {
    if (!schedule) return;
    const problem = cronProblem(schedule.cron, schedule.timezone);
    if (problem) throw badRequest(`schedule.cron: ${problem}`);
  };

  const filterChoices = async (companyId: string) => {
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
  };

  const cards = async (companyId: string): Promise<Card[]> => {
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
  };

  // ---- Lists ----------------------------------------------------------------------------------------

  registerListRoutes(
    app,
    { config: read, tags: TAGS },
    {
      answer: workflowList,
      message: 'Workflows',
      page: listOf,
      list: { path: '/workflow/:offset/:limit', summary: 'List the workflows' },
      filter: { path: '/workflow/filter/:offset/:limit', summary: 'Filter the workflows', body: workflowFilter, where: workflowConditions },
      search: { path: '/workflow/search/:offset/:limit', summary: 'Search the workflows', where: workflowSearch },
      props: {
        path: '/filters/workflow',
        summary: 'Choices of the workflow filters',
        answer: workflowFilterPropsAnswer,
        message: 'Workflow filters',
        data: filterChoices,
      },
      cards: {
        path: '/workflow/topCards',
        summary: 'Counts of workflows and runs',
        answer: workflowCardsAnswer,
        message: 'Workflow cards',
        cards,
      },
    },
  );

  // ---- One workflow -------------------------------------------------------------------------------

  registerFindRoute(
    app,
    { config: read, tags: TAGS },
    {
      path: '/workflow/:id',
      summary: 'One workflow',
      answer: workflowAnswer,
      message: 'Workflow',
      find: rowOf,
    },
  );

  api.post(
    '/workflow',
    {
      config: { policy: ['workflows', 'create'] },
      schema: { summary: 'Create a workflow', tags: TAGS, body: createWorkflowBody, response: { 201: workflowAnswer } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const body = request.body;
      checkSchedule(body.schedule);
      const workspaceId = await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      await checkWorkflowReferences(db, auth.companyId, body);
      const id = await unlessTaken(WORKFLOW_NAME_TAKEN, () =>
        auditedCreate(db, request, { companyId: auth.companyId, model: 'workflow', after: { ...body, workspaceId } }, async (tx) => {
          await assertWithinPlan(tx, config.plans, auth.companyId, 'workflows');
          const [created] = await tx
            .insert(workflows)
            .values({
              ...storedFields(body),
              name: body.name,
              pairId: body.pairId,
              workspaceId,
              companyId: auth.companyId,
              createdBy: auth.userId,
            })
            .returning({ id: workflows.id });
          return created.id;
        }),
      );
      await runner.syncSchedule(auth.companyId, id);
      return reply.code(201).send({ message: `Workflow "${body.name}" created`, data: await rowOf(auth.companyId, id) });
    },
  );

  api.put(
    '/workflow/:id',
    {
      config: update,
      schema: { summary: 'Edit a workflow', tags: TAGS, params: idParams, body: updateWorkflowBody, response: { 200: workflowAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const body = request.body;
      const current = await rowOf(auth.companyId, id);
      checkSchedule(body.schedule);
      const workspaceId =
        body.workspaceId === undefined ? current.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      const merged = {
        pairId: body.pairId ?? current.pairId,
        repositoryConnectionId: body.repositoryConnectionId === undefined ? current.repositoryConnectionId : body.repositoryConnectionId,
        databricksConnectionId: body.databricksConnectionId === undefined ? current.databricksConnectionId : body.databricksConnectionId,
        databricksJobId: body.databricksJobId === undefined ? current.databricksJobId : body.databricksJobId,
        tasks: (body.tasks ?? current.tasks) as WorkflowTask[],
        notifyOnFailure: body.notifyOnFailure ?? current.notifyOnFailure,
      };
      if (merged.tasks.length === 0) throw badRequest('tasks: give at least one task');
      await checkWorkflowReferences(db, auth.companyId, merged);
      const changes = { ...storedFields(body), ...(body.workspaceId !== undefined ? { workspaceId } : {}) };
      await unlessTaken(WORKFLOW_NAME_TAKEN, () =>
        audited(
          db,
          request,
          (tx) =>
            tx
              .update(workflows)
              .set({ ...changes, updatedAt: new Date() })
              .where(companyWorkflows(auth.companyId, eq(workflows.id, id))),
          { companyId: auth.companyId, model: 'workflow', operation: 'update', recordId: id, changes: { after: body } },
        ),
      );
      await runner.syncSchedule(auth.companyId, id);
      const row = await rowOf(auth.companyId, id);
      return { message: `Workflow "${row.name}" saved`, data: row };
    },
  );

  registerActivationRoute(
    app,
    { config: update, tags: TAGS },
    {
      method: 'POST',
      path: '/workflow/activate/:id',
      summary: 'Activate or deactivate a workflow',
      answer: workflowAnswer,
      noun: 'Workflow',
      model: 'workflow',
      find: rowOf,
      write: (tx, companyId, id, isActive) =>
        tx
          .update(workflows)
          .set({ isActive, updatedAt: new Date() })
          .where(companyWorkflows(companyId, eq(workflows.id, id))),
      changed: (companyId, id) => runner.syncSchedule(companyId, id),
    },
  );

  api.post(
    '/workflow/configure/:id',
    {
      config: update,
      schema: {
        summary: 'Check a workflow against what it names, without running it',
        tags: TAGS,
        params: idParams,
        response: { 200: answer(workflowCheck) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const workflow = await rowOf(auth.companyId, request.params.id);
      const problems: Array<{ task: string | null; message: string }> = [];
      const probe = async (
        connectionId: string | null,
        what: string,
        work: (connector: ReturnType<typeof connectors.open>) => Promise<void>,
        task: string | null = null,
      ) => {
        if (!connectionId) return;
        try {
          const cfg = await connectionConfig(db, secrets, auth.companyId, connectionId);
          if (!cfg.isActive) problems.push({ task, message: `${what} "${cfg.name}" is deactivated` });
          await connectors.use(cfg, work);
        } catch (err) {
          problems.push({ task, message: `${what}: ${(err as Error).message}` });
        }
      };
      await probe(workflow.sourceId, 'The source', (c) => c.test().then(() => undefined));
      await probe(workflow.destinationId, 'The destination', (c) => c.test().then(() => undefined));
      for (const task of workflow.tasks as WorkflowTask[]) {
        if (task.type === 'copy' && 'table' in task.from) {
          const table = task.from.table;
          await probe(
            workflow.sourceId,
            'The source table',
            async (c) => {
              if (!isTableSource(c)) throw new Error('has no tables');
              await c.columns(table);
            },
            task.name,
          );
        }
        if (task.type === 'sql' && workflow.repositoryConnectionId) {
          try {
            const { repository, filePath } = repositoryFile(
              await connectionConfig(db, secrets, auth.companyId, workflow.repositoryConnectionId),
              task.path,
            );
            const options = gitOptions(config, connectors.context);
            const ref = task.ref || (await listBranches(repository, options)).defaultBranch || 'main';
            const commit = await resolveCommit(repository, ref, options);
            const files = await listFilesAt(repository, commit, undefined, options);
            if (!files.includes(filePath)) problems.push({ task: task.name, message: `The repository has no ${task.path} at ${ref}` });
          } catch (err) {
            problems.push({ task: task.name, message: (err as Error).message });
          }
        }
      }
      return {
        message:
          problems.length === 0
            ? `Workflow "${workflow.name}" is ready to run`
            : `Workflow "${workflow.name}" has ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
        data: { ok: problems.length === 0, problems },
      };
    },
  );

  api.post(
    '/workflow/run/:jobId',
    {
      config: update,
      schema: {
        summary: 'Run a workflow now',
        tags: TAGS,
        params: z.object({ jobId: uuidParam }),
        body: z.preprocess((body) => body ?? {}, z.object({ jobId: uuidParam.optional() }).strict()),
        response: { 202: runAnswer },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const workflow = await rowOf(auth.companyId, request.params.jobId);
      if (!workflow.isActive) throw badRequest(`The workflow "${workflow.name}" is deactivated; activate it first`);
      const runId = await runner.enqueue({
        companyId: auth.companyId,
        workflowId: workflow.id,
        trigger: auth.apiKeyId ? 'api_key' : 'manual',
        userId: auth.userId,
        apiKeyId: auth.apiKeyId ?? null,
      });
      await recordAudit(db, request, {
        companyId: auth.companyId,
        model: 'workflow',
        operation: 'run',
        recordId: workflow.id,
        changes: { after: { runId } },
      });
      return reply.code(202).send({ message: `Workflow "${workflow.name}" queued`, data: await findRun(db, auth.companyId, runId) });
    },
  );

  api.get(
    '/workflow/connection/gitRepo/:id',
    {
      config: read,
      schema: {
        summary: "The branches and files of a connection's repository",
        tags: TAGS,
        params: idParams,
        querystring: z.object({ ref: z.string().max(200).optional(), path: z.string().max(500).optional() }),
        response: { 200: answer(gitRepositoryListing) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const cfg = await connectionConfig(db, secrets, companyId, request.params.id);
      if (cfg.type !== 'git' && cfg.type !== 'bitbucket') throw badRequest('id: this connection is not a git or Bitbucket repository');
      const options = gitOptions(config, connectors.context);
      // A Bitbucket connection holds a workspace of repositories: a path starts with the repository's name, as SQL tasks' paths do.
      const requested = (request.query.path ?? '').replace(/^\/+|\/+$/g, '');
      let repository: ConnectionConfig = cfg;
      let directory = requested || undefined;
      let prefix = '';
      if (cfg.type === 'bitbucket') {
        const [slug, ...rest] = requested.split('/');
        if (!slug) throw badRequest('path: name the Bitbucket repository first, as in analytics or analytics/models');
        repository = repositoryFile(cfg, `${slug}/_`).repository;
        directory = rest.join('/') || undefined;
        prefix = `${slug}/`;
      }
      const { defaultBranch, branches } = await listBranches(repository, options);
      const ref = request.query.ref || defaultBranch;
      if (!ref)
        return {
          message: 'The repository has no branch yet',
          data: { defaultBranch: null, branches: [], ref: null, commit: null, files: [] },
        };
      const commit = await resolveCommit(repository, ref, options);
      const files = (await listFilesAt(repository, commit, directory, options)).map((file) => `${prefix}${file}`);
      return { message: `${files.length} files at ${ref}`, data: { defaultBranch: defaultBranch ?? null, branches, ref, commit, files } };
    },
  );

  api.get(
    '/workflow/databricks/job/status/:id',
    {
      config: read,
      schema: { summary: 'The Databricks state of a run', tags: TAGS, params: idParams, response: { 200: answer(databricksRunState) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      await findRun(db, companyId, request.params.id);
      return {
        message: 'Databricks run',
        data: await databricksRunStatus({ db, secrets, http: { reach: connectors.context.reach } }, companyId, request.params.id),
      };
    },
  );

  // ---- Job runs ---------------------------------------------------------------------------------

  answerRoute(
    app,
    readRuns,
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
    readRuns,
    {
      method: 'POST',
      path: '/jobRunTracker/filters',
      summary: 'Filter the runs of a workflow, or of every workflow',
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
      return { message: 'Job runs', data: await runsPage(db, companyId, where, offset, limit) };
    },
  );

  registerReadRoute(app, readRuns, {
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

  registerFindRoute(app, readRuns, {
    path: '/jobRunTracker/:id',
    summary: 'One run with its steps and logs',
    answer: runAnswer,
    message: 'Job run',
    find: (companyId, id) => findRun(db, companyId, id),
  });

  answerRoute(
    app,
    { config: update, tags: RUN_TAGS },
    { method: 'PUT', path: '/jobRunTracker/:id/cancel', summary: 'Stop a queued or running run', params: idParams, answer: runAnswer },
    async ({ auth, params, request }) => {
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
    },
  );

  // ---- A run's data-quality results -------------------------------------------------------------------

  answerRoute(
    app,
    readRuns,
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

  answerRoute(
    app,
    readRuns,
    {
      method: 'GET',
      path: '/dataQuality/filters',
      summary: "Choices of a run's data-quality filter",
      querystring: runQuery,
      answer: runQualityFilterPropsAnswer,
    },
    async ({ auth: { companyId }, query }) => {
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
    },
  );

  answerRoute(
    app,
    readRuns,
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
