import { connections } from '../../../../resources/connections';
import { jobRuns } from '../../../../resources/job-runs';
import { sourceDestinations } from '../../../../resources/source-destinations';
import { tables } from '../../../../resources/tables';
import { workflows } from '../../../../resources/workflows';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';

export { FRAMEWORK_TIMEOUT_MS as WORKFLOWS_TIMEOUT_MS, mockPolicies, plainUser } from '../../framework/harness';

/** The workflows and the run tracker (and the areas they link to), as MainApp renders the registry. */
export function renderWorkflows(path: string, as: SessionUser = adminUser): Rendered {
  signIn(as);
  return renderDeclared([workflows, jobRuns, connections, sourceDestinations, tables], { path });
}
