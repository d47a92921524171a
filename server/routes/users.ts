import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { sent } from '../platform/answers';
import { messageAnswer } from '../../common/contract/answers';
import {
  activationLinkAnswer,
  activeUsersAnswer,
  aiNotificationAnswer,
  avatarAnswer,
  duplicateUsernameAnswer,
  invitationAnswer,
  ownProfileAnswer,
  preferencesAnswer,
  userAnswer,
  userCardsAnswer,
  userFilterPropsAnswer,
  userListAnswer,
  usernameAvailableAnswer,
} from '../../common/contract/users';
import { TEMPORARY_PASSWORD_MISMATCH } from '../../common/messages';
import {
  aiNotificationSchema,
  adminUserEditSchema,
  demoUserSchema,
  inviteUserSchema,
  mpinSchema,
  username as usernameRule,
} from '../../common/schemas/users';
import { recordAccessEvent, recordAudit } from '../audit';
import { companies, roles, users } from '../db/schema';
import { findAccount } from '../auth/accounts';
import { countFailure, reauthLimit, refuseWhenBlocked, withinQuietRate } from '../auth/attempts';
import { requireAuth } from '../auth/guard';
import { refuseWhileImpersonating } from '../auth/impersonation';
import { mailInvitation, newTemporaryPassword, renewInvitation } from '../auth/invitations';
import { findTokenHolder, issueOneTimeToken, oneTimeTokenField, spendToken, type TokenHolder } from '../auth/one-time-tokens';
import { storeNewPassword } from '../auth/password-change';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { isAllowed } from '../auth/policies';
import { findImpersonator } from '../auth/session-user';
import { clearFailures, consumeRate } from '../auth/throttle';
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors';
import { currentPasswordField, emailField, hostnameField, limitParam, newPasswordField, offsetParam, uuidParam } from '../http/schemas';
import { notify } from '../notify';
import { deleteUser, editUser } from '../users/admin';
import { acceptProfileForms } from '../users/avatar';
import { profileCards, userCards } from '../users/cards';
import { userFilterBody, userFilterParams, userFilterProps, userSelection } from '../users/filters';
import { avatarOf, updateOwnProfile } from '../users/profile';
import { ALL_USERS, DEFAULT_USER_SORT, findUserRow, listUsers } from '../users/rows';
import {
  EMAIL_TAKEN_MESSAGE,
  assertEmailFree,
  assertUsernameFree,
  activeAdminIds,
  assignableRole,
  checkWorkspaces,
  setWorkspaces,
  uniqueConflict,
  usernameTaken,
} from '../users/rules';
import { assertWithinPlan } from '../subscription/limits';
import { assertNewUserAllowed, assertPasswordAllowed } from '../settings/enforce';
import { passwordPolicyOf } from '../settings/store';

export { EMAIL_TAKEN_MESSAGE };
export const ACTIVATION_LINK_INVALID_MESSAGE = 'This activation link is invalid or has expired';
export const RESEND_MESSAGE =
  'If this account is waiting to be activated, a new temporary password and activation link have been mailed to it.';

/** Activation mails per account per hour; past it, the same answer is given and no mail is sent. */
const ACTIVATION_MAILS_PER_HOUR = 5;
const RESEND_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

/** One preference value, as JSON, at most this big; and at most this many keys per user. */
export const PREFERENCE_VALUE_MAX_BYTES = 16 * 1024;
export const PREFERENCE_MAX_KEYS = 50;

/** `GET /users/0/null` lists every user (for pickers), up to this many. */
export const ALL_USERS_LIMIT = 10_000;

const TAGS = ['Users'];
const idParams = z.object({ id: uuidParam });
const listParams = z.object({
  offset: offsetParam,
  // `null` is how the console asks for all of them.
  limit: z.preprocess((value) => (value === 'null' ? undefined : value), limitParam.optional()),
});
const nameParams = z.object({ name: usernameRule });
const usernameCheckQuery = z.object({ userId: uuidParam.optional() });
const profileCardParams = z.object({
  userId: uuidParam,
  days: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(365, 'must be at most 365'),
});
const activationTokenBody = z.object({ token: oneTimeTokenField });
const createPasswordBody = z.object({
  defaultPasswordToken: oneTimeTokenField,
  oldPassword: currentPasswordField,
  newPassword: newPasswordField,
});
const accountBody = z.object({ email: emailField, companyHostname: hostnameField });
const preferenceParams = z.object({
  key: z.string().regex(/^[a-zA-Z0-9._-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, underscores or hyphens'),
});
const preferenceBody = z.object({ value: z.unknown().optional() }).superRefine((body, ctx) => {
  if (body.value === undefined) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'is required (any JSON value)' });
  } else if (Buffer.byteLength(JSON.stringify(body.value)) > PREFERENCE_VALUE_MAX_BYTES) {
    ctx.addIssue({ code: 'custom', path: ['value'], message: `must be at most ${PREFERENCE_VALUE_MAX_BYTES / 1024} KB of JSON` });
  }
});

const userList = sent(userListAnswer);
const oneUser = sent(userAnswer);
const ownProfile = sent(ownProfileAnswer);
/** The picture is sent as a Buffer, not the string the document names its bytes with. */
const avatarBytes = { ...avatarAnswer, content: avatarAnswer.content as Record<string, { schema: ZodType<unknown> }> };

/** An activation link is good while unused, unexpired, and its account still waits to be activated. */
function isPendingActivation(holder: TokenHolder | null): holder is TokenHolder {
  return !!holder && holder.user.status === 'invited' && holder.user.isActive && holder.company.isActive;
}

export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;
  const ownRow = (auth: { companyId: string; userId: string }) => and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId));
  await acceptProfileForms(app);

  // ---- Invitation and activation ---------------------------------------------------------------

  api.post(
    '/user',
    {
      config: { policy: ['users', 'create'] },
      schema: {
        summary: 'Invite a user (an activation link is mailed to them)',
        tags: TAGS,
        body: inviteUserSchema,
        response: { 201: invitationAnswer },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { email, firstName, lastName, roleId, workspaceIds } = request.body;
      await assertNewUserAllowed(db, auth.companyId, { email });
      const role = await assignableRole(db, auth, roleId);
      if (workspaceIds) await checkWorkspaces(db, auth.companyId, workspaceIds);
      await assertEmailFree(db, auth.companyId, email);
      const [company] = await db.select().from(companies).where(eq(companies.id, auth.companyId));

      const temporary = await newTemporaryPassword();
      let invited: { user: typeof users.$inferSelect; token: string };
      try {
        invited = await db.transaction(async (tx) => {
          await assertWithinPlan(tx, ctx.config.plans, auth.companyId, 'users');
          const [user] = await tx
            .insert(users)
            .values({
              companyId: auth.companyId,
              email,
              firstName,
              lastName,
              roleId,
              status: 'invited',
              passwordHash: temporary.hash,
              createdBy: auth.userId,
            })
            .returning();
          if (workspaceIds?.length) await setWorkspaces(tx, auth.companyId, user.id, workspaceIds);
          const token = await issueOneTimeToken(tx, ctx.secrets, { companyId: auth.companyId, userId: user.id }, 'activation');
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'user',
            operation: 'create',
            recordId: user.id,
            changes: {
              after: { email, firstName, lastName, roleId, roleName: role.name, status: 'invited', workspaceIds: workspaceIds ?? [] },
            },
          });
          return { user, token };
        });
      } catch (err) {
        // Two invitations racing for one address: the unique index decides.
        throw uniqueConflict(err) ?? err;
      }
      await mailInvitation(ctx, request, { user: invited.user, company, temporaryPassword: temporary.password, token: invited.token });
      return reply.code(201).send({
        message: `An invitation has been mailed to ${email}`,
        data: { id: invited.user.id, email, status: 'invited' },
      });
    },
  );

  api.post(
    '/user/verify',
    {
      config: { public: true, acrossCompanies: 'the account is found by its mailed token' },
      schema: { summary: 'Check an activation link', tags: TAGS, body: activationTokenBody, response: { 200: activationLinkAnswer } },
    },
    async (request) => {
      const holder = await findTokenHolder(db, ctx.secrets, 'activation', request.body.token);
      if (!isPendingActivation(holder)) throw badRequest(ACTIVATION_LINK_INVALID_MESSAGE);
      return {
        message: 'The activation link is valid: choose your password',
        data: { email: holder.user.email, passwordPolicy: await passwordPolicyOf(db, holder.company.id) },
      };
    },
  );

  api.post(
    '/user/password/create',
    {
      config: { public: true, acrossCompanies: 'the account is found by its mailed token' },
      schema: {
        summary: 'Activate an account: set its first password',
        tags: TAGS,
        body: createPasswordBody,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const { defaultPasswordToken, oldPassword, newPassword } = request.body;
      const holder = await findTokenHolder(db, ctx.secrets, 'activation', defaultPasswordToken);
      if (!isPendingActivation(holder)) throw badRequest(ACTIVATION_LINK_INVALID_MESSAGE);
      const { user } = holder;
      await assertPasswordAllowed(db, user.companyId, newPassword);
      const limits = [reauthLimit(user.id)];
      const event = { companyId: user.companyId, userId: user.id, email: user.email, event: 'password_create' as const };
      await refuseWhenBlocked(db, request, limits, event);
      if (!(await verifyPassword(user.passwordHash, oldPassword))) {
        await recordAccessEvent(db, request, { ...event, status: 'failure', reason: 'bad_temporary_password' });
        await countFailure(db, limits);
        throw badRequest(TEMPORARY_PASSWORD_MISMATCH);
      }
      if (newPassword === oldPassword) throw badRequest('newPassword: must be different from the temporary password');
      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        if (!(await spendToken(tx, holder.tokenId))) throw badRequest(ACTIVATION_LINK_INVALID_MESSAGE);
        await storeNewPassword(tx, user, passwordHash, { status: 'active' });
        await recordAudit(tx, request, {
          companyId: user.companyId,
          userId: user.id,
          model: 'user',
          operation: 'activate',
          recordId: user.id,
          changes: { before: { status: 'invited' }, after: { status: 'active' } },
        });
        await recordAccessEvent(tx, request, { ...event, status: 'success' });
        const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
        await notify(tx, {
          companyId: user.companyId,
          to: await activeAdminIds(tx, user.companyId, user.id),
          type: 'invitation_accepted',
          title: `${name} accepted the invitation`,
          message: `${user.email} has activated their account.`,
          link: `/users/${user.id}/show`,
          createdBy: user.id,
        });
      });
      await clearFailures(db, limits[0].key);
      return { message: 'Your password is set and your account is active. Sign in with your new password.' };
    },
  );

  api.post(
    '/user/token/resend',
    {
      config: { public: true, acrossCompanies: 'the account is found by its company host name' },
      schema: { summary: 'Mail a new activation link', tags: TAGS, body: accountBody, response: { 200: messageAnswer } },
    },
    async (request) => {
      await consumeRate(
        db,
        `resend:ip:${request.ip}`,
        RESEND_REQUESTS_PER_ADDRESS_PER_HOUR,
        3600,
        'activation mail requests from this address',
      );
      // Hashed before the lookup, whatever is found, so the answer takes as long for every address.
      const temporary = await newTemporaryPassword();
      const { email, companyHostname } = request.body;
      const { company, user } = await findAccount(db, companyHostname, email);
      const waiting = company?.isActive && user?.status === 'invited' && user.isActive;
      if (!company || !user || !waiting || !(await withinQuietRate(db, `resend:acct:${user.id}`, ACTIVATION_MAILS_PER_HOUR, 3600))) {
        return { message: RESEND_MESSAGE };
      }
      const token = await db.transaction(async (tx) => {
        const issued = await renewInvitation(tx, ctx.secrets, user, temporary);
        await recordAudit(tx, request, {
          companyId: company.id,
          userId: user.id,
          model: 'user',
          operation: 'resend_invitation',
          recordId: user.id,
        });
        return issued;
      });
      await mailInvitation(ctx, request, { user, company, temporaryPassword: temporary.password, token });
      return { message: RESEND_MESSAGE };
    },
  );

  // ---- Administration: lists, cards, one user, edit, delete, demo accounts ----------------------

  api.get(
    '/users/:offset/:limit',
    {
      config: { policy: ['users', 'read'] },
      schema: { summary: 'List the users', tags: TAGS, params: listParams, response: { 200: userList } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { offset, limit } = request.params;
      const data = await listUsers(db, auth.companyId, ALL_USERS, DEFAULT_USER_SORT, offset, limit ?? ALL_USERS_LIMIT);
      return { message: 'Users', data };
    },
  );

  api.post(
    '/users/filter/:limit/:offset/:order/:field',
    {
      config: { policy: ['users', 'read'] },
      schema: {
        summary: 'Filter and sort the users',
        tags: TAGS,
        params: userFilterParams,
        body: userFilterBody,
        response: { 200: userList },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { limit, offset, order, field } = request.params;
      const data = await listUsers(
        db,
        auth.companyId,
        await userSelection(db, auth.companyId, request.body),
        { field, order },
        offset,
        limit,
      );
      return { message: 'Users', data };
    },
  );

  api.get(
    '/users/filter/props',
    {
      config: { policy: ['users', 'read'] },
      schema: { summary: 'Choices of the user filters', tags: TAGS, response: { 200: userFilterPropsAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return { message: 'User filter choices', data: await userFilterProps(db, auth.companyId) };
    },
  );

  api.get(
    '/users/cards',
    { config: { policy: ['users', 'read'] }, schema: { summary: 'Counts of users', tags: TAGS, response: { 200: userCardsAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      return { message: 'User cards', data: { cards: await userCards(db, auth.companyId) } };
    },
  );

  api.get(
    '/users/:id',
    { config: { policy: ['users', 'read'] }, schema: { summary: 'Read a user', tags: TAGS, params: idParams, response: { 200: oneUser } } },
    async (request) => {
      const auth = requireAuth(request);
      const row = await findUserRow(db, auth.companyId, request.params.id);
      return { message: 'User', data: row };
    },
  );

  api.put(
    '/user/profile/:id',
    {
      config: { policy: ['users', 'update'] },
      schema: {
        summary: 'Edit a user (name, role, workspaces, status, two-factor rule)',
        tags: TAGS,
        params: idParams,
        body: adminUserEditSchema,
        response: { 200: oneUser },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      await editUser(db, request, auth, request.params.id, request.body);
      const row = await findUserRow(db, auth.companyId, request.params.id);
      return { message: `${row.email} has been saved`, data: row };
    },
  );

  api.delete(
    '/users/:id',
    {
      config: { policy: ['users', 'delete'] },
      schema: { summary: 'Delete a user', tags: TAGS, params: idParams, response: { 200: messageAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const user = await deleteUser(db, request, auth, request.params.id);
      return { message: `${user.email} has been deleted` };
    },
  );

  /** A demo or test account, active at once with the password given (no invitation mail). */
  api.post(
    '/client/createUser',
    {
      config: { policy: ['users', 'create'] },
      schema: {
        summary: 'Create a demo user who can sign in at once (no invitation)',
        tags: TAGS,
        body: demoUserSchema,
        response: { 201: oneUser },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { email, username, firstName, lastName, password, roleId } = request.body;
      await assertNewUserAllowed(db, auth.companyId, { email, password });
      const role = await assignableRole(db, auth, roleId);
      await assertEmailFree(db, auth.companyId, email);
      await assertUsernameFree(db, auth.companyId, username);
      const passwordHash = await hashPassword(password);
      let id: string;
      try {
        id = await db.transaction(async (tx) => {
          await assertWithinPlan(tx, ctx.config.plans, auth.companyId, 'users');
          const now = new Date();
          const [user] = await tx
            .insert(users)
            .values({
              companyId: auth.companyId,
              email,
              username,
              firstName,
              lastName,
              roleId,
              status: 'active',
              passwordHash,
              passwordChangedAt: now,
              createdBy: auth.userId,
            })
            .returning({ id: users.id });
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'user',
            operation: 'create',
            recordId: user.id,
            changes: { after: { email, username, firstName, lastName, roleId, roleName: role.name, status: 'active', demo: true } },
          });
          return user.id;
        });
      } catch (err) {
        throw uniqueConflict(err) ?? err;
      }
      const row = await findUserRow(db, auth.companyId, id);
      return reply.code(201).send({ message: `${email} has been created and can sign in now`, data: row });
    },
  );

  api.get(
    '/client/checkDuplicateUserName/:name',
    {
      schema: { summary: 'Check whether a username is taken', tags: TAGS, params: nameParams, response: { 200: duplicateUsernameAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const duplicate = await usernameTaken(db, auth.companyId, request.params.name);
      return { message: duplicate ? 'This username is taken' : 'This username is free', data: { duplicate } };
    },
  );

  api.get(
    '/users/username/check/:name',
    {
      schema: {
        summary: 'Check whether a username is free for a user',
        tags: TAGS,
        params: nameParams,
        querystring: usernameCheckQuery,
        response: { 200: usernameAvailableAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      // The name the account already has counts as available to it.
      const available = !(await usernameTaken(db, auth.companyId, request.params.name, request.query.userId ?? auth.userId));
      return { message: available ? 'This username is available' : 'This username is taken', data: { available } };
    },
  );

  // ---- The signed-in user ----------------------------------------------------------------------

  api.get('/user/profile', { schema: { summary: 'Read your own profile', tags: TAGS, response: { 200: ownProfile } } }, async (request) => {
    const auth = requireAuth(request);
    const [row] = await db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        roleId: users.roleId,
        roleName: roles.name,
        isAdmin: roles.isAdmin,
        otpEnabled: users.otpEnabled,
        companyName: companies.name,
        companyHostname: companies.hostname,
      })
      .from(users)
      .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId)));
    if (!row) throw unauthorized();
    // The admin behind an impersonation, so a reloaded console can still show who is acting.
    const impersonator = auth.impersonatorUserId ? await findImpersonator(db, auth.companyId, auth.impersonatorUserId) : null;
    // `data` is the full record, as the users list shows it (phone, picture, preferences of notice...).
    return { message: 'Profile', user: { ...row, impersonator }, data: await findUserRow(db, auth.companyId, auth.userId) };
  });

  api.put(
    '/user/profile',
    { schema: { summary: 'Edit your own profile (a multipart form may carry a picture)', tags: TAGS, response: { 200: oneUser } } },
    async (request) => {
      const auth = requireAuth(request);
      await updateOwnProfile(db, request, auth);
      return { message: 'Your profile has been saved', data: await findUserRow(db, auth.companyId, auth.userId) };
    },
  );

  api.get(
    '/user/avatar/:id',
    { schema: { summary: "A user's profile picture", tags: TAGS, params: idParams, response: { 200: avatarBytes } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const avatar = await avatarOf(db, auth.companyId, request.params.id);
      return reply
        .header('content-type', avatar.type)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(avatar.bytes);
    },
  );

  api.get(
    '/user/profile/cards/:userId/:days',
    {
      schema: {
        summary: "Counts of a user's activity over the last days",
        tags: TAGS,
        params: profileCardParams,
        response: { 200: userCardsAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { userId, days } = request.params;
      if (userId !== auth.userId && !(await isAllowed(db, auth, 'users', 'read'))) throw forbidden();
      const [target] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, userId)));
      if (!target) throw notFound('User');
      return { message: 'Profile cards', data: { cards: await profileCards(db, auth.companyId, userId, days) } };
    },
  );

  /** An MPIN: one's own, or anyone's for an admin. A credential, so never through an API key or an impersonation. */
  api.put(
    '/user/mpin/create/:id',
    {
      config: { apiKeys: false },
      schema: {
        summary: "Set a user's MPIN (your own, or anyone's as an admin)",
        tags: TAGS,
        params: idParams,
        body: mpinSchema,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      refuseWhileImpersonating(auth);
      if (id !== auth.userId && !auth.isAdmin) throw forbidden();
      const [target] = await db
        .select({ id: users.id, email: users.email, hasMpin: sql<boolean>`${users.mpinHash} is not null` })
        .from(users)
        .where(and(eq(users.companyId, auth.companyId), eq(users.id, id)));
      if (!target) throw notFound('User');
      const mpinHash = await hashPassword(request.body.mpin);
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ mpinHash, updatedAt: new Date() })
          .where(and(eq(users.companyId, auth.companyId), eq(users.id, id)));
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'user',
          operation: 'set_mpin',
          recordId: id,
          changes: { before: { mpin: target.hasMpin ? 'set' : 'none' }, after: { mpin: 'set' } },
        });
      });
      return { message: id === auth.userId ? 'Your MPIN has been saved' : `The MPIN of ${target.email} has been saved` };
    },
  );

  api.put(
    '/user/notification',
    {
      schema: {
        summary: 'Turn your AI notifications on or off',
        tags: TAGS,
        body: aiNotificationSchema,
        response: { 200: aiNotificationAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { aiNotification } = request.body;
      const [current] = await db.select({ aiNotification: users.aiNotification }).from(users).where(ownRow(auth));
      if (!current) throw unauthorized();
      if (current.aiNotification !== aiNotification) {
        await db.transaction(async (tx) => {
          await tx.update(users).set({ aiNotification, updatedAt: new Date() }).where(ownRow(auth));
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'user',
            operation: 'update_notification',
            recordId: auth.userId,
            changes: { before: { aiNotification: current.aiNotification }, after: { aiNotification } },
          });
        });
      }
      return { message: aiNotification ? 'AI notifications are on' : 'AI notifications are off', data: { aiNotification } };
    },
  );

  api.get(
    '/users/active',
    { schema: { summary: 'List the active users', tags: TAGS, response: { 200: activeUsersAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await db
        .select({
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          roleName: roles.name,
          isAdmin: roles.isAdmin,
        })
        .from(users)
        .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
        .where(and(eq(users.companyId, auth.companyId), eq(users.status, 'active'), eq(users.isActive, true)))
        .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
      return { message: 'Active users', users: rows };
    },
  );

  // ---- Preferences: small JSON values the console keeps per user (table layouts, filters, ...) ----

  api.get(
    '/user/preferences',
    { schema: { summary: 'Read your console preferences', tags: TAGS, response: { 200: preferencesAnswer } } },
    async (request) => {
      const auth = requireAuth(request);
      const [row] = await db.select({ preferences: users.preferences }).from(users).where(ownRow(auth));
      return { message: 'Preferences', data: row?.preferences ?? {} };
    },
  );

  api.get(
    '/user/preferences/:key',
    {
      schema: {
        summary: 'Read one of your console preferences',
        tags: TAGS,
        params: preferenceParams,
        response: { 200: preferencesAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { key } = request.params;
      const [row] = await db
        .select({ value: sql<unknown>`${users.preferences} -> ${key}` })
        .from(users)
        .where(ownRow(auth));
      return { message: 'Preference', data: { [key]: row?.value ?? null } };
    },
  );

  api.put(
    '/user/preferences/:key',
    {
      schema: {
        summary: 'Save one of your console preferences',
        tags: TAGS,
        params: preferenceParams,
        body: preferenceBody,
        response: { 200: preferencesAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { key } = request.params;
      const { value } = request.body;
      // Merged in one statement, so two tabs saving different keys at once both keep theirs.
      const updated = await db
        .update(users)
        .set({ preferences: sql`${users.preferences} || jsonb_build_object(${key}::text, ${JSON.stringify(value)}::jsonb)` })
        .where(
          and(
            ownRow(auth),
            sql`(jsonb_exists(${users.preferences}, ${key}::text) or (select count(*) from jsonb_object_keys(${users.preferences})) < ${PREFERENCE_MAX_KEYS})`,
          ),
        )
        .returning({ id: users.id });
      if (updated.length === 0) throw badRequest(`key: at most ${PREFERENCE_MAX_KEYS} different preferences can be kept per user`);
      return { message: 'Preference saved', data: { [key]: value } };
    },
  );
}
