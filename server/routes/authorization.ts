import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownPoliciesAnswer, policyCatalogueAnswer, userPoliciesAnswer } from '../../common/contract/answers/authorization';
import { assignPoliciesBody } from '../../common/schemas/roles';
import { requireAuth } from '../auth/guard';
import { effectivePolicies, isAllowed, POLICY_ACTIONS, POLICY_RESOURCES } from '../auth/policies';
import { forbidden } from '../http/errors';
import { uuidParam } from '../http/schemas';
import { policiesOfUser, replaceUserPolicies } from '../roles/user-policies';

const TAGS = ['Roles and policies'];
const userParams = z.object({ userId: uuidParam });

/** Authorization: the policy catalogue, a user's policies and the caller's own. */
export async function authorizationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  // The catalogue holds no tenant data; every signed-in user may read it (to read their own policies by it).
  api.get(
    '/authorization/policies',
    { schema: { summary: 'The policy catalogue: resources and actions', tags: TAGS, response: { 200: policyCatalogueAnswer } } },
    async (request) => {
      requireAuth(request);
      const resources = POLICY_RESOURCES.map((r) => ({ resource: r.resource, label: r.label, actions: [...r.actions] }));
      return { message: 'Policy catalogue', data: { resources, actions: [...POLICY_ACTIONS] } };
    },
  );

  api.get(
    '/authorization/policies/:userId',
    { schema: { summary: "Read a user's policies", tags: TAGS, params: userParams, response: { 200: userPoliciesAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      const { userId } = request.params;
      if (userId !== auth.userId && !(await isAllowed(db, auth, 'users', 'read'))) throw forbidden();
      return { message: 'User policies', data: await policiesOfUser(db, auth.companyId, userId) };
    },
  );

  api.post(
    '/authorization/policies/:userId',
    {
      config: { policy: ['users', 'update'] },
      schema: {
        summary: "Replace a user's own policies",
        tags: TAGS,
        params: userParams,
        body: assignPoliciesBody,
        response: { 200: userPoliciesAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const data = await replaceUserPolicies(db, request, auth, request.params.userId, request.body.policies);
      return { message: 'The user policies have been saved; they apply from the user’s next action', data };
    },
  );

  api.get(
    '/authorization/user/policies',
    { schema: { summary: 'Your own policies', tags: TAGS, response: { 200: ownPoliciesAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      return { message: 'Your policies', data: { isAdmin: auth.isAdmin, policies: await effectivePolicies(db, auth) } };
    },
  );
}
