import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { answer } from '../../../common/contract/answers';
import { workflowRow } from '../../../common/contract/workflows';
import { createWorkflowBody, updateWorkflowBody, type WorkflowTask } from '../../../common/schemas/workflows';
import { workflows } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { uuidParam } from '../../http/schemas';
import { cronProblem } from '../../jobs/schedule';
import { registerActivationRoute } from '../../platform/activation-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { audited, auditedCreate, unlessTaken } from '../../platform/audited';
import { assertWithinPlan } from '../../subscription/limits';
import { companyWorkflows } from '../../workflows/records';
import { checkWorkflowReferences } from '../../workflows/references';
import { liveWorkspaceId } from '../../workspaces/records';
import { readWorkflow, WORKFLOW_NAME_TAKEN } from './repository';

const idParams = z.object({ id: uuidParam });
/** The rows hold Dates and their statuses as plain strings, so the handlers' values are not typed by the schema. */
const workflowAnswer: ZodType<unknown> = answer(workflowRow);

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

/** A body's schedule, checked as cron-parser reads it. */
function checkSchedule(schedule: { cron: string; timezone: string } | null | undefined) {
  if (!schedule) return;
  const problem = cronProblem(schedule.cron, schedule.timezone);
  if (problem) throw badRequest(`schedule.cron: ${problem}`);
}

/**
 * The create, the edit and the (de)activation: each checks what the workflow names, audits the
 * body it was given, and then has the runner follow the workflow's schedule.
 */
export function registerWorkflowChanges(app: FastifyInstance, allowed: (action: 'create' | 'update') => RouteBase) {
  const { db, runner, config } = app.ctx;

  answerRoute(
    app,
    allowed('create'),
    { method: 'POST', path: '/workflow', summary: 'Create a workflow', body: createWorkflowBody, answer: workflowAnswer, status: 201 },
    async ({ auth, body, request }) => {
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
      return { message: `Workflow "${body.name}" created`, data: await readWorkflow(db, auth.companyId, id) };
    },
  );

  answerRoute(
    app,
    allowed('update'),
    {
      method: 'PUT',
      path: '/workflow/:id',
      summary: 'Edit a workflow',
      params: idParams,
      body: updateWorkflowBody,
      answer: workflowAnswer,
    },
    async ({ auth, params: { id }, body, request }) => {
      const current = await readWorkflow(db, auth.companyId, id);
      checkSchedule(body.schedule);
      const workspaceId =
        body.workspaceId === undefined ? current.workspaceId : await liveWorkspaceId(db, auth.companyId, body.workspaceId);
      // What the workflow names once changed, checked as a whole.
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
      const row = await readWorkflow(db, auth.companyId, id);
      return { message: `Workflow "${row.name}" saved`, data: row };
    },
  );

  registerActivationRoute(app, allowed('update'), {
    method: 'POST',
    path: '/workflow/activate/:id',
    summary: 'Activate or deactivate a workflow',
    answer: workflowAnswer,
    noun: 'Workflow',
    model: 'workflow',
    find: (companyId, id) => readWorkflow(db, companyId, id),
    write: (tx, companyId, id, isActive) =>
      tx
        .update(workflows)
        .set({ isActive, updatedAt: new Date() })
        .where(companyWorkflows(companyId, eq(workflows.id, id))),
    changed: (companyId, id) => runner.syncSchedule(companyId, id),
  });
}
