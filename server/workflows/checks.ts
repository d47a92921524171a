import type { GitRepositoryListing, WorkflowCheck } from '../../common/contract/workflows';
import type { WorkflowTask } from '../../common/schemas/workflows';
import { connectionConfig } from '../connections/records';
import { listBranches, listFilesAt, resolveCommit } from '../connectors/git';
import { isTableSource, type ConnectionConfig } from '../connectors/types';
import { badRequest } from '../http/errors';
import { requireSourceColumns } from '../jobs/tasks/copy-merge';
import { gitOptions, repositoryFile } from '../jobs/tasks/repository';
import type { AppContext } from '../platform/context';
import type { WorkflowRow } from './records';

/** What reading a workflow's connections and repository needs of the server. */
type Reach = Pick<AppContext, 'db' | 'secrets' | 'connectors' | 'config'>;

/**
 * What would stop a workflow from running, found without running it: its pair's connections
 * (deactivated, or not answering), the source tables its copies read, the repository files its SQL
 * tasks read. Each problem names its task; null for the pair.
 */
export async function workflowProblems(reach: Reach, companyId: string, workflow: WorkflowRow): Promise<WorkflowCheck['problems']> {
  const { db, secrets, connectors, config } = reach;
  const problems: WorkflowCheck['problems'] = [];
  const probe = async (
    connectionId: string | null,
    what: string,
    work: (connector: ReturnType<typeof connectors.open>) => Promise<void>,
    task: string | null = null,
  ) => {
    if (!connectionId) return;
    try {
      const cfg = await connectionConfig(db, secrets, companyId, connectionId);
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
          const names = (await c.columns(table)).map((column) => column.name);
          // A merge's keys and a watermark are columns of the source; a query's columns are only known when it runs.
          const wanted = [
            ...(task.to.keys ?? []).map((key) => ({ name: key, role: 'key' as const })),
            ...(task.watermark === undefined ? [] : [{ name: task.watermark, role: 'watermark' as const }]),
          ];
          for (const { name, role } of wanted) {
            try {
              requireSourceColumns([name], names, c.dialect, role);
            } catch (error) {
              problems.push({ task: task.name, message: (error as Error).message });
            }
          }
        },
        task.name,
      );
    }
    if (task.type === 'sql' && workflow.repositoryConnectionId) {
      try {
        const { repository, filePath } = repositoryFile(
          await connectionConfig(db, secrets, companyId, workflow.repositoryConnectionId),
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
  return problems;
}

/**
 * The branches of a git or Bitbucket connection's repository, and its files under `path` at `ref`
 * (the default branch when not given): where a SQL task's file is picked.
 */
export async function repositoryListing(
  reach: Reach,
  companyId: string,
  connectionId: string,
  asked: { ref?: string; path?: string },
): Promise<{ message: string; data: GitRepositoryListing }> {
  const { db, secrets, connectors, config } = reach;
  const cfg = await connectionConfig(db, secrets, companyId, connectionId);
  if (cfg.type !== 'git' && cfg.type !== 'bitbucket') throw badRequest('id: this connection is not a git or Bitbucket repository');
  const options = gitOptions(config, connectors.context);
  // A Bitbucket connection holds a workspace of repositories: a path starts with the repository's name, as SQL tasks' paths do.
  const requested = (asked.path ?? '').replace(/^\/+|\/+$/g, '');
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
  const ref = asked.ref || defaultBranch;
  if (!ref) {
    return { message: 'The repository has no branch yet', data: { defaultBranch: null, branches: [], ref: null, commit: null, files: [] } };
  }
  const commit = await resolveCommit(repository, ref, options);
  const files = (await listFilesAt(repository, commit, directory, options)).map((file) => `${prefix}${file}`);
  return { message: `${files.length} files at ${ref}`, data: { defaultBranch: defaultBranch ?? null, branches, ref, commit, files } };
}
