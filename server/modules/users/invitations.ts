import { asFoundCompany } from '../../db/tenant-scope';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { messageAnswer } from '../../../common/contract/answers';
import { activationLinkAnswer, invitationAnswer, usersContract } from '../../../common/contract/users';
import { TEMPORARY_PASSWORD_MISMATCH } from '../../../common/messages';
import { inviteUserSchema } from '../../../common/schemas/users';
import { recordAccessEvent, recordAudit } from '../../audit';
import { findAccount } from '../../auth/accounts';
import { countFailure, reauthLimit, refuseWhenBlocked, withinQuietRate } from '../../auth/attempts';
import { mailInvitation, newTemporaryPassword, renewInvitation } from '../../auth/invitations';
import type { MailResult } from '../../mail/mailer';
import { findTokenHolder, issueOneTimeToken, oneTimeTokenField, spendToken, type TokenHolder } from '../../auth/one-time-tokens';
import { storeNewPassword } from '../../auth/password-change';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { clearFailures, consumeRate } from '../../auth/throttle';
import { companies, users } from '../../db/schema';
import { badRequest } from '../../http/errors';
import { currentPasswordField, newPasswordField } from '../../http/schemas';
import { notify } from '../../notify';
import { actionRoute } from '../../platform/action-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { assertNewUserAllowed, assertPasswordAllowed } from '../../settings/enforce';
import { passwordPolicyOf } from '../../settings/store';
import { assertWithinPlan } from '../../subscription/limits';
import { activeAdminIds, assertEmailFree, assignableRole, checkWorkspaces, setWorkspaces, uniqueConflict } from '../../users/rules';

const ACTIVATION_LINK_INVALID_MESSAGE = 'This activation link is invalid or has expired';
const RESEND_MESSAGE = 'If this account is waiting to be activated, a new temporary password and activation link have been mailed to it.';

/** Activation mails per account per hour; past it, the same answer is given and no mail is sent. */
const ACTIVATION_MAILS_PER_HOUR = 5;
const RESEND_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

const TAGS = ['Users'];
const activationTokenBody = z.object({ token: oneTimeTokenField });
const createPasswordBody = z.object({
  defaultPasswordToken: oneTimeTokenField,
  oldPassword: currentPasswordField,
  newPassword: newPasswordField,
});

/** What the admin is told once a user is invited: where the invitation went, by how the mail left. */
export function invitationMessage(email: string, status: MailResult['status']): string {
  if (status === 'sent') return `An invitation has been mailed to ${email}`;
  if (status === 'stored') {
    return `${email} is invited. No mail server is set up, so the invitation is kept in the Mail outbox: pass its activation link on to them.`;
  }
  return `${email} is invited, but the invitation mail could not be sent; it is kept in the Mail outbox with the error.`;
}

/** An activation link is good while unused, unexpired, and its account still waits to be activated. */
function isPendingActivation(holder: TokenHolder | null): holder is TokenHolder {
  return !!holder && holder.user.status === 'invited' && holder.user.isActive && holder.company.isActive;
}

/**
 * Invitations (the contract's create, `POST /user`): the user is kept as invited and mailed a
 * temporary password and an activation link; following it sets their first password. The
 * contract's public action `/user/token/resend` mails a new pair to an account still waiting.
 */
export function registerInvitationRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;

  answerRoute(
    app,
    { config: { policy: ['users', 'create'] }, tags: TAGS },
    {
      method: 'POST',
      path: '/user',
      summary: 'Invite a user (an activation link is mailed to them)',
      body: inviteUserSchema,
      answer: invitationAnswer,
      status: 201,
    },
    async ({ auth, body, request }) => {
      const { email, firstName, lastName, roleId, workspaceIds } = body;
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
      const mailed = await mailInvitation(ctx, request, {
        user: invited.user,
        company,
        temporaryPassword: temporary.password,
        token: invited.token,
      });
      return { message: invitationMessage(email, mailed.status), data: { id: invited.user.id, email, status: 'invited' } };
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
        data: {
          email: holder.user.email,
          companyHostname: holder.company.hostname,
          passwordPolicy: await passwordPolicyOf(db, holder.company.id),
        },
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
      // The link's company is known: the rest is its work alone.
      return asFoundCompany(user.companyId, async () => {
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
      });
    },
  );

  const acrossCompanies: RouteBase = { config: { acrossCompanies: 'the account is found by its company host name' }, tags: TAGS };
  actionRoute(app, acrossCompanies, usersContract.actions.resendActivation, async ({ body, request }) => {
    await consumeRate(
      db,
      `resend:ip:${request.ip}`,
      RESEND_REQUESTS_PER_ADDRESS_PER_HOUR,
      3600,
      'activation mail requests from this address',
    );
    // Hashed before the lookup, whatever is found, so the answer takes as long for every address.
    const temporary = await newTemporaryPassword();
    const { email, companyHostname } = body;
    const { company, user } = await findAccount(db, companyHostname, email);
    const waiting = company?.isActive && user?.status === 'invited' && user.isActive;
    if (!company || !user || !waiting) return { message: RESEND_MESSAGE };
    // The account's company is known: the rest is its work alone.
    return asFoundCompany(company.id, async () => {
      if (!(await withinQuietRate(db, `resend:acct:${user.id}`, ACTIVATION_MAILS_PER_HOUR, 3600))) return { message: RESEND_MESSAGE };
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
    });
  });
}
