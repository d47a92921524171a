import type { TaskType } from '../../../common/schemas/workflows';
import type { TaskExecutor } from '../types';
import { copyExecutor } from './copy';
import type { TaskDeps } from './deps';
import { notifyExecutor } from './notify';
import { qualityExecutor } from './quality';
import { sqlExecutor } from './sql';

export type { TaskDeps } from './deps';
export { runLink } from './run-link';

/**
 * The executor of each task type (docs/api/workflows.md). A runner calls `executor(task,
 * context)`; an executor reads what it needs of the workflow itself — its pair's source and
 * destination and its repository connection — by the context's company and workflow id, as they
 * are when the task runs (server/jobs/tasks/workflow-connections.ts).
 */
export function createTaskExecutors(deps: TaskDeps): Record<TaskType, TaskExecutor> {
  return {
    copy: copyExecutor(deps),
    sql: sqlExecutor(deps),
    quality: qualityExecutor(deps),
    notify: notifyExecutor(deps),
  };
}
