import { apikeys } from '../../../../resources/apikeys';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';
import { ADA, BOB } from './apikeysApi';

export { FRAMEWORK_TIMEOUT_MS as APIKEYS_TIMEOUT_MS, mockPolicies } from '../../framework/harness';

export const ada: SessionUser = { ...adminUser, id: ADA, companyHostname: 'acme' };
export const bob: SessionUser = {
  ...adminUser,
  id: BOB,
  email: 'bob@acme.test',
  firstName: 'Bob',
  lastName: 'Builder',
  isAdmin: false,
  accessToken: 'token-bob',
  token: 'token-bob',
};

/** The API-keys declaration rendered as MainApp renders the registry, signed in as `as`. */
export function renderApiKeys(path: string, as: SessionUser = ada): Rendered {
  signIn(as);
  return renderDeclared([apikeys], { path });
}
