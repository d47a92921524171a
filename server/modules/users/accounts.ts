import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { messageAnswer } from '../../../common/contract/answers';
import { userAnswer, userListAnswer, usersContract } from '../../../common/contract/users';
import { adminUserEditSchema } from '../../../common/schemas/users';
import { limitParam, offsetParam, uuidParam } from '../../http/schemas';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { sent } from '../../platform/answers';
import { createDemoUser, deleteUser, editUser } from '../../users/admin';
import { DEFAULT_USER_SORT, findUserRow } from '../../users/rows';
import { usernameTaken } from '../../users/rules';
import { actionRoute } from '../../platform/action-route';
import { userRepository } from './repository';

/** `GET /users/0/null` lists every user (for pickers), up to this many. */
const ALL_USERS_LIMIT = 10_000;

const TAGS = ['Users'];
const { actions } = usersContract;
const may = (action: 'read' | 'create' | 'update' | 'delete'): RouteBase => ({ config: { policy: ['users', action] }, tags: TAGS });
const signedIn: RouteBase = { config: {}, tags: TAGS };
const idParams = z.object({ id: uuidParam });
const listParams = z.object({
  offset: offsetParam,
  // `null` is how the console asks for all of them.
  limit: z.preprocess((value) => (value === 'null' ? undefined : value), limitParam.optional()),
});
const oneUser = sent(userAnswer);

/**
 * An admin's calls on the company's accounts that are not the standard ones: the list, whose
 * limit may be `null` (every user); the change and the delete, whose rules (who may change whom,
 * the last admin, one's own account) are in server/users/admin.ts and whose answers name the
 * user by email; demo accounts; and the username checks of the forms. The last three are the
 * contract's actions, served with their own checks: the demo account `/client/createUser` (201),
 * the username checks `/client/checkDuplicateUserName/{name}` and `/users/username/check/{name}`
 * (the name held to the username rule, the account as `?userId=`).
 */
export function registerAccountRoutes(app: FastifyInstance): void {
  const ctx = app.ctx;
  const { db } = ctx;

  answerRoute(
    app,
    may('read'),
    { method: 'GET', path: '/users/:offset/:limit', summary: 'List the users', params: listParams, answer: sent(userListAnswer) },
    async ({ auth, params: { offset, limit }, request }) => {
      const page = { offset, limit: limit ?? ALL_USERS_LIMIT, sort: DEFAULT_USER_SORT };
      return { message: 'Users', data: await userRepository.list({ db, auth, request }, page) };
    },
  );

  answerRoute(
    app,
    may('update'),
    {
      method: 'PUT',
      path: '/user/profile/:id',
      summary: 'Edit a user (name, role, workspaces, status, two-factor rule)',
      params: idParams,
      body: adminUserEditSchema,
      answer: oneUser,
    },
    async ({ auth, params: { id }, body, request }) => {
      await editUser(db, request, auth, id, body);
      const row = await findUserRow(db, auth.companyId, id);
      return { message: `${row.email} has been saved`, data: row };
    },
  );

  answerRoute(
    app,
    may('delete'),
    { method: 'DELETE', path: '/users/:id', summary: 'Delete a user', params: idParams, answer: messageAnswer },
    async ({ auth, params: { id }, request }) => {
      const user = await deleteUser(db, request, auth, id);
      return { message: `${user.email} has been deleted` };
    },
  );

  actionRoute(app, may('create'), actions.demoUser, async ({ auth, body, request }) => {
    const id = await createDemoUser(db, request, auth, ctx.config.plans, body);
    const row = await findUserRow(db, auth.companyId, id);
    return { message: `${body.email} has been created and can sign in now`, data: row };
  });

  actionRoute(app, signedIn, actions.usernameTaken, async ({ auth, params }) => {
    const duplicate = await usernameTaken(db, auth.companyId, params.name);
    return { message: duplicate ? 'This username is taken' : 'This username is free', data: { duplicate } };
  });

  actionRoute(app, signedIn, actions.usernameFree, async ({ auth, params, query }) => {
    // The name the account already has counts as available to it.
    const available = !(await usernameTaken(db, auth.companyId, params.name, query.userId ?? auth.userId));
    return { message: available ? 'This username is available' : 'This username is taken', data: { available } };
  });
}
