import { qualityTask } from '../../../common/schemas/workflows';
import { abortReason } from '../../connectors/types';
import { HttpError } from '../../http/errors';
import { runTableChecks } from '../../tables/run-checks';
import type { TaskExecutor } from '../types';
import type { TaskDeps } from './deps';
import { messageOf, taskFields } from './task-fields';

/**
 * The `quality` task: runs the active data-quality rules of each table, one table after the
 * other, each run kept with the job run (trigger 'workflow'). A table whose run failed (a
 * fail-severity rule failed) or could not be measured fails the task, named in its message; one
 * whose only failures are warn-severity rules does not. A table that cannot be checked at all (it
 * was deleted, has no active rule, or its connection is deactivated) counts as not measured.
 */
export function qualityExecutor(deps: TaskDeps): TaskExecutor {
  return async (task, context) => {
    const fields = taskFields(qualityTask, task);
    const problems: string[] = [];
    for (const tableId of fields.tableIds) {
      if (context.signal.aborted) throw abortReason(context.signal);
      let checked: Awaited<ReturnType<typeof runTableChecks>>;
      try {
        checked = await runTableChecks(deps, {
          companyId: context.companyId,
          tableId,
          trigger: 'workflow',
          jobRunId: context.runId,
          userId: context.userId,
        });
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        const reason = error.statusCode === 404 ? `the table ${tableId} no longer exists` : messageOf(error);
        await context.log(`Not checked: ${reason}`);
        problems.push(reason);
        continue;
      }
      const { outcome, tableName } = checked;
      const results = outcome.results;
      const passed = results.filter((result) => result.status === 'passed').length;
      const failing = results
        .filter((result) => result.status !== 'passed')
        .map((result) => `${result.ruleName} (${result.severity}: ${result.status})`);
      const summary =
        outcome.status === 'error'
          ? `could not be measured: ${outcome.error}`
          : `${passed} of ${results.length} rules passed${failing.length ? `; ${failing.join(', ')}` : ''}`;
      await context.log(`${tableName}: ${outcome.status}, ${summary}`);
      if (outcome.status === 'failed' || outcome.status === 'error') problems.push(`${tableName} (${outcome.status})`);
    }
    if (problems.length > 0) throw new Error(`Data-quality checks did not pass: ${problems.join('; ')}`);
    return {};
  };
}
