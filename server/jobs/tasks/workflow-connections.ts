import { and, eq } from 'drizzle-orm';
import type { Secrets } from '../../auth/secrets';
import { connectionConfig } from '../../connections/records';
import type { ConnectionConfig } from '../../connectors/types';
import type { Db } from '../../db/client';
import { sourceDestinations, workflows } from '../../db/schema';
import { HttpError } from '../../http/errors';
import type { TaskContext } from '../types';

/**
 * What a task needs of its workflow beyond its own fields: the connections the workflow names.
 * A task reads them when it runs (by the run's company and workflow id), so a connection edited
 * between two runs is used as it is now; a deactivated or deleted one fails the task by name.
 */

/** A connection ready to open, with the name messages give it. */
export type NamedConnection = ConnectionConfig & { name: string };

export interface WorkflowConnections {
  /** The pair's source. */
  source(): Promise<NamedConnection>;
  /** The pair's destination. */
  destination(): Promise<NamedConnection>;
  /** The repository SQL tasks read their files from. */
  repository(): Promise<NamedConnection>;
  /** Any other connection of the company (a notify task's Slack connection). */
  connection(id: string, role: string): Promise<NamedConnection>;
}

export async function workflowConnections(
  deps: { db: Db; secrets: Secrets },
  context: Pick<TaskContext, 'companyId' | 'workflowId'>,
): Promise<WorkflowConnections> {
  const { db, secrets } = deps;
  const { companyId } = context;
  const [workflow] = await db
    .select({
      name: workflows.name,
      repositoryConnectionId: workflows.repositoryConnectionId,
      sourceId: sourceDestinations.sourceId,
      destinationId: sourceDestinations.destinationId,
    })
    .from(workflows)
    .leftJoin(sourceDestinations, and(eq(sourceDestinations.companyId, workflows.companyId), eq(sourceDestinations.id, workflows.pairId)))
    .where(and(eq(workflows.companyId, companyId), eq(workflows.id, context.workflowId)));
  if (!workflow) throw new Error('The workflow of this run no longer exists');

  const connection = async (id: string, role: string): Promise<NamedConnection> => {
    let config: Awaited<ReturnType<typeof connectionConfig>>;
    try {
      config = await connectionConfig(db, secrets, companyId, id);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404)
        throw new Error(`The ${role} connection of the workflow no longer exists`, { cause: error });
      throw error;
    }
    if (!config.isActive) throw new Error(`The ${role} connection "${config.name}" is deactivated; activate it to run this task`);
    return { companyId, type: config.type, settings: config.settings, secrets: config.secrets, name: config.name };
  };
  const pairMember = async (id: string | null, role: string) => {
    if (!id) throw new Error(`The source/destination pair of workflow "${workflow.name}" no longer exists`);
    return connection(id, role);
  };
  return {
    source: () => pairMember(workflow.sourceId, 'source'),
    destination: () => pairMember(workflow.destinationId, 'destination'),
    repository: async () => {
      if (!workflow.repositoryConnectionId)
        throw new Error(`Workflow "${workflow.name}" has no repository connection for its SQL tasks to read from`);
      return connection(workflow.repositoryConnectionId, 'repository');
    },
    connection,
  };
}
