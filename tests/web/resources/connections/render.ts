import { connections } from '../../../../resources/connections';
import { sourceDestinations } from '../../../../resources/source-destinations';
import { tables } from '../../../../resources/tables';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';

export { FRAMEWORK_TIMEOUT_MS as CONNECTIONS_TIMEOUT_MS, mockPolicies, plainUser } from '../../framework/harness';

/** The connections area (its pairs list and the tables it registers into too), as MainApp renders the registry. */
export function renderConnections(path: string, as: SessionUser = adminUser): Rendered {
  signIn(as);
  return renderDeclared([connections, sourceDestinations, tables], { path });
}
