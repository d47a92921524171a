import type { FastifyInstance } from 'fastify';
import { jobRunsContract } from '../../../common/contract/job-runs';
import type { PolicyAction } from '../../../common/contract/define';
import { workflowCardsAnswer, workflowFilterPropsAnswer, workflowsContract } from '../../../common/contract/workflows';
import { recordAudit } from '../../audit';
import { badRequest } from '../../http/errors';
import { databricksRunStatus } from '../../jobs/databricks-engine';
import { actionRoute } from '../../platform/action-route';
import type { RouteBase } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { repositoryListing, workflowProblems } from '../../workflows/checks';
import { askFullCopyOf, destinationRows, tableColumns } from '../../workflows/copy-tables';
import { findRun, type WorkflowRow } from '../../workflows/records';
import { registerWorkflowChanges } from './changes';
import { readWorkflow, workflowFilterBody, workflowRepository } from './repository';
import { registerRunRoutes } from './runs';

const TAGS = ['Workflows'];
const { actions } = workflowsContract;
const runActions = jobRunsContract.actions;

/** The calls the module serves itself are guarded by the workflows policy too. */
const allowed = (action: PolicyAction): RouteBase => ({ config: { policy: [workflowsContract.policy.resource, action] }, tags: TAGS });

/**
 * Workflows, their runs (the job run tracker) and the repository files their SQL tasks read
 * (docs/api/workflows.md). Runs are queued on the server's JobRunner. Served from their contract:
 * the list `/workflow/{offset}/{limit}`, the filter `/workflow/filter/{offset}/{limit}`, its choices
 * `/filters/workflow`, the cards `/workflow/topCards`, one `/workflow/{id}` and the search
 * `/workflow/search/{offset}/{limit}`, whose text may be blank (all of them). The module's own:
 * the create, edit and (de)activation, which
 * check what the workflow names, audit the body given and reschedule it; and the runs with their
 * quality results. Served from the contracts' actions: the check `/workflow/configure/{id}`, the
 * run now `/workflow/run/{jobId}`, a repository's files `/workflow/connection/gitRepo/{id}` and a
 * Databricks run's state `/workflow/databricks/job/status/{id}`.
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

    actionRoute(app, allowed('update'), actions.check, async ({ auth: { companyId }, params }) => {
      const workflow = await readWorkflow(db, companyId, params.id);
      const problems = await workflowProblems(app.ctx, companyId, workflow);
      const found = problems.length === 0 ? 'is ready to run' : `has ${problems.length} problem${problems.length === 1 ? '' : 's'}`;
      return { message: `Workflow "${workflow.name}" ${found}`, data: { ok: problems.length === 0, problems } };
    });

    actionRoute(app, allowed('update'), runActions.start, async ({ auth, params, body, request }) => {
      const workflow = await readWorkflow(db, auth.companyId, params.jobId);
      if (!workflow.isActive) throw badRequest(`The workflow "${workflow.name}" is deactivated; activate it first`);
      if (body?.fullCopy) await askFullCopyOf(db, auth.companyId, workflow);
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
    });

    actionRoute(app, allowed('read'), actions.gitRepository, ({ auth, params, query }) =>
      repositoryListing(app.ctx, auth.companyId, params.id, query),
    );

    actionRoute(app, allowed('read'), actions.tableColumns, ({ auth, params, query }) =>
      tableColumns(app.ctx, auth.companyId, params.id, query.table),
    );

    actionRoute(app, allowed('read'), actions.destinationRows, async ({ auth: { companyId }, params }) =>
      destinationRows(app.ctx, companyId, await readWorkflow(db, companyId, params.id)),
    );

    actionRoute(app, allowed('read'), runActions.databricksState, async ({ auth: { companyId }, params: { id } }) => {
      await findRun(db, companyId, id);
      return {
        message: 'Databricks run',
        data: await databricksRunStatus({ db, secrets, http: { reach: connectors.context.reach } }, companyId, id),
      };
    });

    registerRunRoutes(app, allowed);
  },
};
