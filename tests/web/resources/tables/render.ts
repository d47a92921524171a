import { connections } from '../../../../resources/connections';
import { tables } from '../../../../resources/tables';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';

export { FRAMEWORK_TIMEOUT_MS as TABLES_TIMEOUT_MS, mockPolicies, plainUser } from '../../framework/harness';

/** The tables area (and the connections it links to), as MainApp renders the registry. */
export function renderTables(path: string, as: SessionUser = adminUser): Rendered {
  signIn(as);
  return renderDeclared([tables, connections], { path });
}
