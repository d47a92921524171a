import { users } from '../../../../resources/users';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';

export { FRAMEWORK_TIMEOUT_MS as USERS_TIMEOUT_MS, mockPolicies } from '../../framework/harness';

/** Ada, the admin of the fake company (her id is a row of usersApi's people()). */
export const ada: SessionUser = { ...adminUser, id: 'u-ada', companyHostname: 'acme' };

/** The users declaration rendered as MainApp renders the registry, signed in as `as`. */
export function renderUsers(path: string, as: SessionUser = ada): Rendered {
  signIn(as);
  return renderDeclared([users], { path });
}
