import { bitbucketRepository } from '../../connectors/bitbucket';
import type { GitOptions } from '../../connectors/git';
import type { ConnectorContext } from '../../connectors/registry';
import type { ConnectionConfig } from '../../connectors/types';
import type { TaskDeps } from './deps';

/**
 * Where a SQL task's file is: a git connection is one repository, and the task's path is a path
 * in it. A Bitbucket connection is a workspace of repositories, so the path's first segment names
 * the repository (`analytics/models/daily.sql` is `models/daily.sql` of the repository
 * `analytics`), read over git's https as bitbucket.ts signs in to it (`bitbucketRepository`).
 */

export interface RepositoryFile {
  /** A `git` connection config git.ts reads. */
  repository: ConnectionConfig;
  /** The file's path inside that repository. */
  filePath: string;
}

export function repositoryFile(connection: ConnectionConfig, taskPath: string): RepositoryFile {
  if (connection.type === 'git') return { repository: connection, filePath: taskPath };
  if (connection.type !== 'bitbucket')
    throw new Error(`A ${connection.type} connection is not a repository: choose a git or Bitbucket connection`);
  const [slug, ...rest] = taskPath.split('/');
  if (!slug || rest.length === 0) {
    throw new Error(
      `"${taskPath}": with a Bitbucket connection a path starts with the repository's name, as in analytics/models/daily.sql`,
    );
  }
  return { repository: bitbucketRepository(connection, slug), filePath: rest.join('/') };
}

/**
 * How the SQL task and the workflow routes read repositories: through the server's reach guard,
 * in the places the operator grants, and with remote ones fetched into the server's data
 * directory — each into its company's own cache (git.ts names it from the connection's company).
 * The data directory is the server's even where its connectors keep embedded databases in memory.
 */
export function gitOptions(
  config: Pick<TaskDeps['config'], 'dataDir'>,
  connectors: Pick<ConnectorContext, 'reach' | 'filesRoots'>,
): GitOptions {
  return { places: { dataDir: config.dataDir, filesRoots: connectors.filesRoots }, reach: connectors.reach };
}
