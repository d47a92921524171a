import { and, eq, inArray } from 'drizzle-orm';
import type { ConnectionType } from '../../common/connections';
import type { WorkflowTask } from '../../common/schemas/workflows';
import type { Db } from '../db/client';
import { connections, dataTables, sourceDestinations } from '../db/schema';
import { ConnectorError, type Dialect } from '../connectors/types';
import { badRequest } from '../http/errors';
import { checkCompanySql, companySqlDialectOf } from '../sql/company-sql';

/** Connection types whose tables a copy can read, and those it can write. */
export const READABLE_TYPES: readonly ConnectionType[] = ['postgresql', 'mysql', 'embedded', 'files', 's3', 'gcs', 'azure_blob'];
export const WRITABLE_TYPES: readonly ConnectionType[] = ['postgresql', 'mysql', 'embedded'];
export const REPOSITORY_TYPES: readonly ConnectionType[] = ['git', 'bitbucket'];

export interface WorkflowReferences {
  pairId: string;
  repositoryConnectionId?: string | null;
  databricksConnectionId?: string | null;
  databricksJobId?: string | null;
  tasks: WorkflowTask[];
  notifyOnFailure?: { slackConnectionId?: string | null } | null;
}

/**
 * The query a copy reads is checked as the workflow is saved, in the dialect of the pair's source
 * (server/sql/company-sql.ts), and again when the copy runs. Without a dialect (a source whose SQL
 * is not checked here) only the run checks it.
 */
async function checkCopyQueries(tasks: readonly WorkflowTask[], dialect: Dialect | undefined): Promise<void> {
  if (!dialect) return;
  for (const [index, task] of tasks.entries()) {
    if (task.type !== 'copy' || !('query' in task.from)) continue;
    try {
      await checkCompanySql(dialect, task.from.query);
    } catch (err) {
      if (err instanceof ConnectorError) throw badRequest(`tasks.${index}.from.query: ${err.message}`);
      throw err;
    }
  }
}

/**
 * Checks that what a workflow names belongs to the company and can play its part: the pair, the
 * repository for SQL tasks, the Databricks connection and job, the tables of quality tasks, the
 * Slack connections; and that the queries copies read may run. Every problem is a 400 naming the field.
 */
export async function checkWorkflowReferences(db: Db, companyId: string, body: WorkflowReferences): Promise<void> {
  const [pair] = await db
    .select({ id: sourceDestinations.id, sourceId: sourceDestinations.sourceId, destinationId: sourceDestinations.destinationId })
    .from(sourceDestinations)
    .where(and(eq(sourceDestinations.companyId, companyId), eq(sourceDestinations.id, body.pairId)));
  if (!pair) throw badRequest('pairId: no such source/destination pair');

  const slackIds = [
    ...body.tasks.flatMap((task) => (task.type === 'notify' && task.slackConnectionId ? [task.slackConnectionId] : [])),
    ...(body.notifyOnFailure?.slackConnectionId ? [body.notifyOnFailure.slackConnectionId] : []),
  ];
  const ids = [pair.sourceId, pair.destinationId, body.repositoryConnectionId, body.databricksConnectionId, ...slackIds].filter(
    (id): id is string => !!id,
  );
  const rows = await db
    .select({ id: connections.id, name: connections.name, type: connections.type })
    .from(connections)
    .where(and(eq(connections.companyId, companyId), inArray(connections.id, ids)));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const typeOf = (id: string) => byId.get(id)?.type as ConnectionType | undefined;

  const copies = body.tasks.filter((task) => task.type === 'copy');
  if (copies.length > 0) {
    const source = byId.get(pair.sourceId);
    const destination = byId.get(pair.destinationId);
    if (!READABLE_TYPES.includes(typeOf(pair.sourceId)!))
      throw badRequest(`pairId: the source "${source?.name}" has no tables a copy can read`);
    if (!WRITABLE_TYPES.includes(typeOf(pair.destinationId)!))
      throw badRequest(`pairId: a copy cannot write to the destination "${destination?.name}"; choose a database`);
    await checkCopyQueries(body.tasks, companySqlDialectOf(typeOf(pair.sourceId)));
  }
  if (body.tasks.some((task) => task.type === 'sql')) {
    if (!body.repositoryConnectionId) throw badRequest('repositoryConnectionId: SQL tasks need the repository their files come from');
  }
  if (body.repositoryConnectionId && !REPOSITORY_TYPES.includes(typeOf(body.repositoryConnectionId)!)) {
    throw badRequest('repositoryConnectionId: must be a git or Bitbucket connection of the company');
  }
  if (body.databricksConnectionId) {
    if (typeOf(body.databricksConnectionId) !== 'databricks')
      throw badRequest('databricksConnectionId: must be a Databricks connection of the company');
    if (!body.databricksJobId) throw badRequest('databricksJobId: give the Databricks job to run');
  }
  for (const id of slackIds) if (typeOf(id) !== 'slack') throw badRequest('slackConnectionId: must be a Slack connection of the company');

  const tableIds = [...new Set(body.tasks.flatMap((task) => (task.type === 'quality' ? task.tableIds : [])))];
  if (tableIds.length > 0) {
    const found = await db
      .select({ id: dataTables.id })
      .from(dataTables)
      .where(and(eq(dataTables.companyId, companyId), inArray(dataTables.id, tableIds)));
    const known = new Set(found.map((t) => t.id));
    const missing = tableIds.filter((id) => !known.has(id));
    if (missing.length > 0) throw badRequest(`tableIds: no such table (${missing.join(', ')})`);
  }
}
