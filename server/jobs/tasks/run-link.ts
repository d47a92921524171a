import { runPath } from '../failure-notice';
import type { TaskDeps } from './deps';

/**
 * The console's page of a run, for messages sent outside the console: at PUBLIC_URL when it is
 * set, else on this machine's port (the default address links in mails fall back on).
 */
export function runLink(config: TaskDeps['config'], runId: string): string {
  const base = config.publicUrl ?? `http://localhost:${config.port}`;
  return `${base.replace(/\/+$/, '')}${runPath(runId)}`;
}
