import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { answer } from '../../../common/contract/answers';
import { databricksRunState, jobRunDetail } from '../../../common/contract/job-runs';
import type { PolicyAction } from '../../../common/contract/define';
import {
  gitRepositoryListing,
  workflowCardsAnswer,
  workflowCheck,
  workflowFilterPropsAnswer,
  workflowsContract,
} from '../../../common/contract/workflows';
import { recordAudit } from '../../audit';
import { badRequest } from '../../http/errors';
import { uuidParam } from '../../http/schemas';
import { databricksRunStatus } from '../../jobs/databricks-engine';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { repositoryListing, workflowProblems } from '../../workflows/checks';
import { findRun, type WorkflowRow } from '../../workflows/records';
import { registerWorkflowChanges } from './changes';
import { readWorkflow, workflowFilterBody, workflowRepository } from './repository';
import { registerRunRoutes } from './runs';

const TAGS = ['Workflows'];
const idParams = z.object({ id: uuidParam });

/** The calls the module serves itself are guarded by the workflows policy too. */
const allowed = (action: PolicyAction): RouteBase => ({ config: { policy: [workflowsContract.policy.resource, action] }, tags: TAGS });

/**
 * Workflows, their runs (the job run tracker) and the repository files their SQL tasks read
 * (docs/api/workflows.md). Runs are queued on the server's JobRunner. Served from their contract:
 * the list `/workflow/{offset}/{limit}`, the filter `/workflow/filter/{offset}/{limit}`, its choices
 * `/filters/workflow`, the cards `/workflow/topCards`, one `/workflow/{id}` and the search
 * `/workflow/search/{offset}/{limit}`, whose text may be blank (all of them). The module's own:
 * the create, edit and (de)activation, which
 * check what the workflow names, audit the body given and reschedule it; the check, the run now,
 * a repository's files, a Databricks run's state, and the runs with their quality results.
 */
export const workflowsModule: EntityModule<WorkflowRow> = {
  contract: workflowsContract,
  repository: workflowRepository,
  bodies: { filter: workflowFilterBody },
  own: ['create', 'update', 'activate', 'deactivate'],
  calls: {
    filterProps: { summary: 'Choices of the workflow filters', message: 'Workflow filters', data: workflowFilterPropsAnswer.shape.data },
    cards: { summary: 'Counts of workflows and runs', message: 'Workflow cards', data: workflowCardsAnswer.shape.data },
    one: { summary: 'One workflow', message: 'Workflow' },
  },
  routes(app: FastifyInstance) {
    const { db, secrets, connectors, runner } = app.ctx;

    registerWorkflowChanges(app, allowed);

    answerRoute(
      app,
      allowed('update'),
      {
        method: 'POST',
        path: '/workflow/configure/:id',
        summary: 'Check a workflow against what it names, without running it',
        params: idParams,
        answer: answer(workflowCheck),
      },
      async ({ auth: { companyId }, params }) => {
        const workflow = await readWorkflow(db, companyId, params.id);
        const problems = await workflowProblems(app.ctx, companyId, workflow);
        const found = problems.length === 0 ? 'is ready to run' : `has ${problems.length} problem${problems.length === 1 ? '' : 's'}`;
        return { message: `Workflow "${workflow.name}" ${found}`, data: { ok: problems.length === 0, problems } };
      },
    );

    answerRoute(
      app,
      allowed('update'),
      {
        method: 'POST',
        path: '/workflow/run/:jobId',
        summary: 'Run a workflow now',
        params: z.object({ jobId: uuidParam }),
        body: z.preprocess((body) => body ?? {}, z.object({ jobId: uuidParam.optional() }).strict()),
        answer: answer(jobRunDetail) as ZodType<unknown>,
        status: 202,
      },
      async ({ auth, params, request }) => {
        const workflow = await readWorkflow(db, auth.companyId, params.jobId);
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
        return { message: `Workflow "${workflow.name}" queued`, data: await findRun(db, auth.companyId, runId) };
      },
    );

    answerRoute(
      app,
      allowed('read'),
      {
        method: 'GET',
        path: '/workflow/connection/gitRepo/:id',
        summary: "The branches and files of a connection's repository",
        params: idParams,
        querystring: z.object({ ref: z.string().max(200).optional(), path: z.string().max(500).optional() }),
        answer: answer(gitRepositoryListing),
      },
      ({ auth, params, query }) => repositoryListing(app.ctx, auth.companyId, params.id, query),
    );

    answerRoute(
      app,
      allowed('read'),
      {
        method: 'GET',
        path: '/workflow/databricks/job/status/:id',
        summary: 'The Databricks state of a run',
        params: idParams,
        answer: answer(databricksRunState),
      },
      async ({ auth: { companyId }, params: { id } }) => {
        await findRun(db, companyId, id);
        return {
          message: 'Databricks run',
          data: await databricksRunStatus({ db, secrets, http: { reach: connectors.context.reach } }, companyId, id),
        };
      },
    );

    registerRunRoutes(app, allowed);
  },
};
