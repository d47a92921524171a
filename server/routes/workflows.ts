import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { createWorkflowBody, RUN_STATUSES, updateWorkflowBody, type WorkflowTask } from '../../common/schemas/workflows';
import { activateRoleBody as activationBody } from '../../common/schemas/roles';
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
import { usersWho } from '../audits/people';
import { requireAuth } from '../auth/guard';
import { connectionConfig } from '../connections/records';
import { listBranches, listFilesAt, resolveCommit } from '../connectors/git';
import { isTableSource, type ConnectionConfig } from '../connectors/types';
import { connections, jobRuns, qualityResults, qualityRuns, sourceDestinations, workflows } from '../db/schema';
import { isUniqueViolation } from '../http/database-errors';
import { badRequest, conflict } from '../http/errors';
import {
  anyOf,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  inlined,
  listPage,
  pageParams,
  searchFilter,
  searching,
  startDateFilter,
  textChoiceFilter,
  within,
  type Card,
} from '../http/lists';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { databricksRunStatus } from '../jobs/databricks-engine';
import { gitOptions, repositoryFile } from '../jobs/tasks/repository';
import { resultColumns } from '../tables/quality';
import { liveWorkspaceId, workspaceChoices } from '../workspaces/records';
import { checkWorkflowReferences } from '../workflows/references';
import {
  companyRuns,
  companyWorkflows,
  findRun,
  findWorkflowSelected,
  newestRunsFirst,
  selectRuns,
  selectWorkflows,
  toWorkflowRow,
} from '../workflows/records';
import { cronProblem, nextRunAt } from '../jobs/schedule';
import { assertWithinPlan } from '../subscription/limits';

const TAGS = ['Workflows'];
const RUN_TAGS = ['Job runs'];
const idParams = z.object({ id: uuidParam });
const read = { policy: ['workflows', 'read'] as const };
const update = { policy: ['workflows', 'update'] as const };

export const WORKFLOW_NAME_TAKEN = 'name: a workflow with this name already exists';

const workflowFilter = filterBody({
  connection: idChoiceFilter,
  user: idChoiceFilter,
  workspace: idChoiceFilter,
  startDate: startDateFilter,
  endDate: endDateFilter,
  search: searchFilter,
});

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

  const listOf = async (companyId: string, where: SQL | undefined, offset: number, limit: number) => {
    const condition = companyWorkflows(companyId, where);
    const answer = await listPage(
      db,
      {
        page: (o, l) =>
          selectWorkflows(db).where(condition).orderBy(desc(workflows.createdAt), desc(workflows.id)).offset(inlined(o)).limit(inlined(l)),
        countFrom: workflows,
        where: condition,
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

  // ---- Lists ----------------------------------------------------------------------------------------

  api.get(
    '/workflow/:offset/:limit',
    { config: read, schema: { summary: 'List the workflows', tags: TAGS, params: pageParams, response: { 200: workflowList } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Workflows', data: await listOf(companyId, undefined, request.params.offset, request.params.limit) };
    },
  );

  api.post(
    '/workflow/filter/:offset/:limit',
    {
      config: read,
      schema: { summary: 'Filter the workflows', tags: TAGS, params: pageParams, body: workflowFilter, response: { 200: workflowList } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const f = request.body;
      const connection = f.connection ?? [];
      const where = and(
        connection.length > 0
          ? sql`exists (select 1 from ${sourceDestinations} p where p.company_id = ${workflows.companyId} and p.id = ${workflows.pairId} and (${inArray(sql`p.source_id`, connection)} or ${inArray(sql`p.destination_id`, connection)}))`
          : undefined,
        anyOf(workflows.createdBy, f.user ?? []),
        anyOf(workflows.workspaceId, f.workspace ?? []),
        within(workflows.createdAt, f.startDate ?? null, f.endDate ?? null),
        workflowSearch(f.search ?? ''),
      );
      return { message: 'Workflows', data: await listOf(companyId, where, request.params.offset, request.params.limit) };
    },
  );

  api.get(
    '/workflow/search/:offset/:limit',
    {
      config: read,
      schema: {
        summary: 'Search the workflows',
        tags: TAGS,
        params: pageParams,
        querystring: z.object({ searchText: searchFilter }),
        response: { 200: workflowList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return {
        message: 'Workflows',
        data: await listOf(companyId, workflowSearch(request.query.searchText), request.params.offset, request.params.limit),
      };
    },
  );

  api.get(
    '/filters/workflow',
    { config: read, schema: { summary: 'Choices of the workflow filters', tags: TAGS, response: { 200: workflowFilterPropsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [connection, user, workspace] = await Promise.all([
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
        usersWho(
          db,
          companyId,
          (userId) =>
            sql`exists (select 1 from ${workflows} where ${workflows.companyId} = ${companyId} and ${workflows.createdBy} = ${userId})`,
        ),
        workspaceChoices(db, companyId),
      ]);
      return { message: 'Workflow filters', data: { connection, user, workspace } };
    },
  );

  api.get(
    '/workflow/topCards',
    { config: read, schema: { summary: 'Counts of workflows and runs', tags: TAGS, response: { 200: workflowCardsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const today = new Date();
      today.setUTCHours(0, 0, 0, 0);
      const [[flows], [runs]] = await Promise.all([
        db
          .select({
            total: sql<number>`count(*)`.mapWith(Number),
            active: sql<number>`count(*) filter (where ${workflows.isActive})`.mapWith(Number),
            scheduled: sql<number>`count(*) filter (where ${workflows.isActive} and ${workflows.scheduleCron} is not null)`.mapWith(Number),
          })
          .from(workflows)
          .where(eq(workflows.companyId, companyId)),
        db
          .select({
            today: sql<number>`count(*) filter (where ${jobRuns.queuedAt} >= ${today})`.mapWith(Number),
            failedToday:
              sql<number>`count(*) filter (where ${jobRuns.queuedAt} >= ${today} and ${jobRuns.status} in ('failed', 'timed_out'))`.mapWith(
                Number,
              ),
            running: sql<number>`count(*) filter (where ${jobRuns.status} in ('queued', 'running'))`.mapWith(Number),
          })
          .from(jobRuns)
          .where(eq(jobRuns.companyId, companyId)),
      ]);
      const cards: Card[] = [
        { key: 'total', label: 'Workflows', value: flows.total },
        { key: 'active', label: 'Active', value: flows.active },
        { key: 'scheduled', label: 'Scheduled', value: flows.scheduled },
        { key: 'runsToday', label: 'Runs today', value: runs.today, link: '/job-runs' },
        { key: 'failedToday', label: 'Failed today', value: runs.failedToday, link: '/job-runs' },
        { key: 'running', label: 'Queued or running', value: runs.running, link: '/job-runs' },
      ];
      return { message: 'Workflow cards', data: { cards } };
    },
  );

  // ---- One workflow -------------------------------------------------------------------------------

  api.get(
    '/workflow/:id',
    { config: read, schema: { summary: 'One workflow', tags: TAGS, params: idParams, response: { 200: workflowAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Workflow', data: await rowOf(companyId, request.params.id) };
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
      let id: string;
      try {
        id = await db.transaction(async (tx) => {
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
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'workflow',
            operation: 'create',
            recordId: created.id,
            changes: { after: { ...body, workspaceId } },
          });
          return created.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(WORKFLOW_NAME_TAKEN);
        throw err;
      }
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
      try {
        await db.transaction(async (tx) => {
          await tx
            .update(workflows)
            .set({ ...changes, updatedAt: new Date() })
            .where(companyWorkflows(auth.companyId, eq(workflows.id, id)));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'workflow',
            operation: 'update',
            recordId: id,
            changes: { after: body },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(WORKFLOW_NAME_TAKEN);
        throw err;
      }
      await runner.syncSchedule(auth.companyId, id);
      const row = await rowOf(auth.companyId, id);
      return { message: `Workflow "${row.name}" saved`, data: row };
    },
  );

  api.post(
    '/workflow/activate/:id',
    {
      config: update,
      schema: {
        summary: 'Activate or deactivate a workflow',
        tags: TAGS,
        params: idParams,
        body: activationBody,
        response: { 200: workflowAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const { isActive } = request.body;
      const current = await rowOf(auth.companyId, id);
      if (current.isActive !== isActive) {
        await db.transaction(async (tx) => {
          await tx
            .update(workflows)
            .set({ isActive, updatedAt: new Date() })
            .where(companyWorkflows(auth.companyId, eq(workflows.id, id)));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'workflow',
            operation: isActive ? 'activate' : 'deactivate',
            recordId: id,
            changes: { before: { isActive: !isActive }, after: { isActive } },
          });
        });
        await runner.syncSchedule(auth.companyId, id);
      }
      return { message: `Workflow "${current.name}" is ${isActive ? 'active' : 'deactivated'}`, data: await rowOf(auth.companyId, id) };
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

  const runsOf = (companyId: string, where: SQL | undefined, offset: number, limit: number) => {
    const condition = companyRuns(companyId, where);
    return listPage(
      db,
      {
        page: (o, l) =>
          selectRuns(db)
            .where(condition)
            .orderBy(...newestRunsFirst)
            .offset(inlined(o))
            .limit(inlined(l)),
        countFrom: jobRuns,
        where: condition,
      },
      offset,
      limit,
    );
  };

  api.get(
    '/jobRunTracker/:workflowId/:offset/:limit',
    {
      config: read,
      schema: {
        summary: "A workflow's runs, newest first",
        tags: RUN_TAGS,
        params: z.object({ workflowId: uuidParam, offset: offsetParam, limit: limitParam }),
        response: { 200: runList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { workflowId, offset, limit } = request.params;
      await findWorkflowSelected(db, companyId, workflowId);
      return { message: 'Job runs', data: await runsOf(companyId, eq(jobRuns.workflowId, workflowId), offset, limit) };
    },
  );

  api.post(
    '/jobRunTracker/filters',
    {
      config: read,
      schema: {
        summary: 'Filter the runs of a workflow, or of every workflow',
        tags: RUN_TAGS,
        querystring: runFilterQuery,
        body: runFilter,
        response: { 200: runList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { workflowId } = request.query;
      const f = request.body;
      const offset = f.offset ?? request.query.offset;
      const limit = f.limit ?? request.query.limit;
      if (workflowId) await findWorkflowSelected(db, companyId, workflowId);
      const where = and(
        workflowId ? eq(jobRuns.workflowId, workflowId) : anyOf(jobRuns.workflowId, f.workflow ?? []),
        anyOf(jobRuns.status, f.status ?? []),
        within(jobRuns.queuedAt, f.startDate ?? null, f.endDate ?? null),
      );
      return { message: 'Job runs', data: await runsOf(companyId, where, offset, limit) };
    },
  );

  api.get(
    '/jobRunTracker/filters/props',
    { config: read, schema: { summary: 'Choices of the job-run filters', tags: RUN_TAGS, response: { 200: jobRunFilterPropsAnswer } } },
    async (request) => {
      const { companyId } = requireAuth(request);
      const workflow = await db
        .select({ id: workflows.id, name: workflows.name })
        .from(workflows)
        .where(eq(workflows.companyId, companyId))
        .orderBy(asc(sql`lower(${workflows.name})`));
      const labels: Record<string, string> = {
        queued: 'Queued',
        running: 'Running',
        succeeded: 'Succeeded',
        failed: 'Failed',
        canceled: 'Canceled',
        timed_out: 'Timed out',
      };
      return { message: 'Job-run filters', data: { workflow, status: RUN_STATUSES.map((id) => ({ id, name: labels[id] })) } };
    },
  );

  api.get(
    '/jobRunTracker/:id',
    {
      config: read,
      schema: { summary: 'One run with its steps and logs', tags: RUN_TAGS, params: idParams, response: { 200: runAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Job run', data: await findRun(db, companyId, request.params.id) };
    },
  );

  api.put(
    '/jobRunTracker/:id/cancel',
    { config: update, schema: { summary: 'Stop a queued or running run', tags: RUN_TAGS, params: idParams, response: { 200: runAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      const run = await findRun(db, auth.companyId, request.params.id);
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

  const runResults = async (companyId: string, runId: string, where: SQL | undefined, offset: number, limit: number) => {
    await findRun(db, companyId, runId);
    const condition = and(
      eq(qualityResults.companyId, companyId),
      sql`${qualityResults.runId} in (select q.id from ${qualityRuns} q where q.company_id = ${companyId} and q.job_run_id = ${runId})`,
      where,
    )!;
    return listPage(
      db,
      {
        page: (o, l) =>
          db
            .select({ id: qualityResults.id, tableId: qualityResults.tableId, ...resultColumns })
            .from(qualityResults)
            .where(condition)
            .orderBy(asc(qualityResults.ruleName), asc(qualityResults.id))
            .offset(inlined(o))
            .limit(inlined(l)),
        countFrom: qualityResults,
        where: condition,
      },
      offset,
      limit,
    );
  };

  api.get(
    '/jobRunTracker/:id/dataQuality',
    {
      config: read,
      schema: {
        summary: "The data-quality results a run's quality tasks kept",
        tags: RUN_TAGS,
        params: idParams,
        querystring: pagedQuery,
        response: { 200: qualityResultList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return {
        message: 'Data-quality results',
        data: await runResults(companyId, request.params.id, undefined, request.query.offset, request.query.limit),
      };
    },
  );

  api.get(
    '/dataQuality/filters',
    {
      config: read,
      schema: {
        summary: "Choices of a run's data-quality filter",
        tags: RUN_TAGS,
        querystring: runQuery,
        response: { 200: runQualityFilterPropsAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const runId = request.query.jobRunTrackerId;
      await findRun(db, companyId, runId);
      const ofRun = and(
        eq(qualityResults.companyId, companyId),
        sql`${qualityResults.runId} in (select q.id from ${qualityRuns} q where q.company_id = ${companyId} and q.job_run_id = ${runId})`,
      );
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

  api.post(
    '/dataQuality/filters',
    {
      config: read,
      schema: {
        summary: "Filter a run's data-quality results",
        tags: RUN_TAGS,
        querystring: runQuery.extend(pagedQuery.shape),
        body: qualityFilter,
        response: { 200: qualityResultList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const f = request.body;
      const where = and(anyOf(qualityResults.ruleName, f.qualityName ?? []), anyOf(qualityResults.columnName, f.columnName ?? []));
      const offset = f.offset ?? request.query.offset;
      const limit = f.limit ?? request.query.limit;
      return { message: 'Data-quality results', data: await runResults(companyId, request.query.jobRunTrackerId, where, offset, limit) };
    },
  );
}
