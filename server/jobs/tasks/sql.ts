import { sqlTask } from '../../../common/schemas/workflows';
import { listBranches, readFileAt, resolveCommit } from '../../connectors/git';
import { canRunStatements, ConnectorError } from '../../connectors/types';
import type { TaskExecutor } from '../types';
import type { TaskDeps } from './deps';
import { gitOptions, repositoryFile } from './repository';
import { splitStatements } from './sql-script';
import { count, messageOf, taskFields } from './task-fields';
import { workflowConnections } from './workflow-connections';

/**
 * The `sql` task: reads a file of the workflow's repository at a branch, tag or commit (the
 * default branch when none is given), keeps the commit on the run, and runs the file's
 * statements in order on the pair's destination (or source) on one session: each commits on its
 * own unless the file opens a transaction. Each statement's row count is logged as it ends; the
 * first that fails fails the task with the database's message and where it is in the file.
 */
export function sqlExecutor(deps: TaskDeps): TaskExecutor {
  return async (task, context) => {
    const fields = taskFields(sqlTask, task);
    const connections = await workflowConnections(deps, context);
    const repositoryConnection = await connections.repository();
    const { repository, filePath } = repositoryFile(repositoryConnection, fields.path);
    const options = gitOptions(deps.config, deps.connectors.context);

    const ref = fields.ref || (await listBranches(repository, options)).defaultBranch;
    if (!ref) throw new Error('The repository has no default branch: give the task a branch, tag or commit');
    const commit = await resolveCommit(repository, ref, options);
    await context.setGitCommit(commit);
    let script: string;
    try {
      script = await readFileAt(repository, commit, filePath, options);
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === 'not_found') {
        throw new Error(
          `${fields.path} does not exist at ${ref} (commit ${commit.slice(0, 7)}) of the repository "${repositoryConnection.name}"`,
          { cause: error },
        );
      }
      throw error;
    }
    await context.log(`Read ${fields.path} at ${ref === commit ? commit : `${ref} (${commit})`}`);

    const role = fields.target ?? 'destination';
    const target = role === 'source' ? await connections.source() : await connections.destination();
    await deps.connectors.use(target, async (connector) => {
      if (!canRunStatements(connector)) throw new Error(`SQL cannot run on the ${role} "${target.name}": it is not a database`);
      let statements;
      try {
        statements = splitStatements(script, connector.dialect);
      } catch (error) {
        throw new Error(`${fields.path}: ${messageOf(error)}`, { cause: error });
      }
      if (statements.length === 0) throw new Error(`${fields.path} at ${ref} holds no SQL statement`);
      await context.log(`Running ${statements.length} statement${statements.length === 1 ? '' : 's'} on the ${role} "${target.name}"`);
      let done = 0;
      try {
        await connector.runStatements(
          statements.map((statement) => statement.text),
          {
            signal: context.signal,
            async onStatement(index, outcome) {
              done = index + 1;
              const rows = outcome.rowCount === undefined ? '' : `: ${count(outcome.rowCount)} row${outcome.rowCount === 1 ? '' : 's'}`;
              await context.log(`Statement ${index + 1} (line ${statements[index]!.line}) ${outcome.command || 'done'}${rows}`);
            },
          },
        );
      } catch (error) {
        if (context.signal.aborted)
          throw new Error(`The SQL task was canceled after ${done} of ${statements.length} statements`, { cause: error });
        const failed = statements[done];
        const where = failed ? `Statement ${done + 1} of ${statements.length} (line ${failed.line} of ${fields.path})` : `${fields.path}`;
        throw new Error(`${where} failed: ${messageOf(error)}`, { cause: error });
      }
    });
    return {};
  };
}
