import type { FastifyInstance } from 'fastify';
import { rolesContract } from '../../common/contract/roles';
import { usersContract } from '../../common/contract/users';
import { effectivePolicies, isAllowed, POLICY_ACTIONS, POLICY_RESOURCES } from '../auth/policies';
import { forbidden } from '../http/errors';
import { actionRoute } from '../platform/action-route';
import type { RouteBase } from '../platform/answer-route';
import { policiesOfUser, replaceUserPolicies } from '../roles/user-policies';

const TAGS = ['Roles and policies'];
const signedIn: RouteBase = { config: {}, tags: TAGS };

/**
 * Authorization, from the roles' and users' contract actions: the policy catalogue
 * `/authorization/policies`, a user's policies `/authorization/policies/{userId}` (read, and
 * replaced with users/update) and the caller's own `/authorization/user/policies`.
 */
export async function authorizationRoutes(app: FastifyInstance) {
  const { db } = app.ctx;

  // The catalogue holds no tenant data; every signed-in user may read it (to read their own policies by it).
  actionRoute(app, signedIn, rolesContract.actions.policyCatalogue, async () => {
    const resources = POLICY_RESOURCES.map((r) => ({ resource: r.resource, label: r.label, actions: [...r.actions] }));
    return { message: 'Policy catalogue', data: { resources, actions: [...POLICY_ACTIONS] } };
  });

  actionRoute(app, signedIn, usersContract.actions.policies, async ({ auth, params: { userId } }) => {
    if (userId !== auth.userId && !(await isAllowed(db, auth, 'users', 'read'))) throw forbidden();
    return { message: 'User policies', data: await policiesOfUser(db, auth.companyId, userId) };
  });

  actionRoute(
    app,
    { config: { policy: ['users', 'update'] }, tags: TAGS },
    usersContract.actions.assignPolicies,
    async ({ auth, params: { userId }, body, request }) => {
      const data = await replaceUserPolicies(db, request, auth, userId, body.policies);
      return { message: 'The user policies have been saved; they apply from the user’s next action', data };
    },
  );

  actionRoute(app, signedIn, usersContract.actions.ownPolicies, async ({ auth }) => ({
    message: 'Your policies',
    data: { isAdmin: auth.isAdmin, policies: await effectivePolicies(db, auth) },
  }));
}
