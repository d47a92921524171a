import { sessionsContract, type Session } from '../../../../common/contract/sessions';
import { sessions } from '../../../../resources/sessions';
import { users } from '../../../../resources/users';
import type { SessionUser } from '../../../../providers/types';
import { contractFake } from '../../contractFake';
import { adminUser, renderDeclared, signIn, type Rendered } from '../../framework/harness';

export { FRAMEWORK_TIMEOUT_MS as USERS_TIMEOUT_MS, mockPolicies } from '../../framework/harness';

/** Ada, the admin of the fake company (her id is a row of usersApi's people()). */
export const ada: SessionUser = { ...adminUser, id: 'u-ada', companyHostname: 'acme' };

/**
 * The users declaration rendered as MainApp renders the registry, signed in as `as`, with the
 * sessions declaration a user's page lists them by, over a fake of the sessions contract
 * holding `userSessions`.
 */
export function renderUsers(path: string, as: SessionUser = ada, userSessions: Session[] = []): Rendered {
  signIn(as);
  contractFake<Session>(sessionsContract, userSessions, {
    created: () => {
      throw new Error('The console does not create sessions');
    },
    relatedBy: { user: 'userId' },
  });
  return renderDeclared([users, sessions], { path });
}
