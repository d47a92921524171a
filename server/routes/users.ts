import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { TEMPORARY_PASSWORD_MISMATCH } from '../../common/messages';
import { recordAccessEvent, recordAudit } from '../audit';
import { companies, roles, users } from '../db/schema';
import { findAccount } from '../auth/accounts';
import { countFailure, reauthLimit, refuseWhenBlocked, withinQuietRate } from '../auth/attempts';
import { requireAuth } from '../auth/guard';
import { mailInvitation, newTemporaryPassword, renewInvitation } from '../auth/invitations';
import { findTokenHolder, issueOneTimeToken, oneTimeTokenField, spendToken, type TokenHolder } from '../auth/one-time-tokens';
import { storeNewPassword } from '../auth/password-change';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { findImpersonator } from '../auth/session-user';
import { clearFailures, consumeRate } from '../auth/throttle';
import { badRequest, conflict, unauthorized } from '../http/errors';
import { currentPasswordField, emailField, hostnameField, passwordField, uuidParam } from '../http/schemas';

export const EMAIL_TAKEN_MESSAGE = 'A user with this email already exists';
export const ACTIVATION_LINK_INVALID_MESSAGE = 'This activation link is invalid or has expired';
export const RESEND_MESSAGE =
  'If this account is waiting to be activated, a new temporary password and activation link have been mailed to it.';

/** Activation mails per account per hour; past it, the same answer is given and no mail is sent. */
const ACTIVATION_MAILS_PER_HOUR = 5;
const RESEND_REQUESTS_PER_ADDRESS_PER_HOUR = 20;

/** One preference value, as JSON, at most this big; and at most this many keys per user. */
export const PREFERENCE_VALUE_MAX_BYTES = 16 * 1024;
export const PREFERENCE_MAX_KEYS = 50;

/** Letters (any script), spaces, apostrophes, hyphens and periods: "Anne-Marie O'Neil Jr.", or nothing. */
const PERSON_NAME = /^(?:[\p{L}\p{M}](?:[\p{L}\p{M} '’.-]*[\p{L}\p{M}.])?)?$/u;
const personName = z
  .string({ error: 'is required' })
  .trim()
  .max(100, 'must be at most 100 characters')
  .regex(PERSON_NAME, 'may only contain letters, spaces, apostrophes, hyphens and periods');

const inviteBody = z.object({
  email: emailField,
  firstName: personName.min(1, 'is required'),
  lastName: personName.default(''),
  roleId: uuidParam,
});
const activationTokenBody = z.object({ token: oneTimeTokenField });
const createPasswordBody = z.object({
  defaultPasswordToken: oneTimeTokenField,
  oldPassword: currentPasswordField,
  newPassword: passwordField,
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

/** A unique index refused the row (drizzle wraps the driver's error, so look through the causes). */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++, e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** An activation link is good while unused, unexpired, and its account still waits to be activated. */
function isPendingActivation(holder: TokenHolder | null): holder is TokenHolder {
  return !!holder && holder.user.status === 'invited' && holder.user.isActive && holder.company.isActive;
}

export async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;
  const { db } = ctx;

  // ---- Invitation and activation ---------------------------------------------------------------

  api.post('/user', { config: { adminOnly: true }, schema: { body: inviteBody } }, async (request, reply) => {
    const auth = requireAuth(request);
    const { email, firstName, lastName, roleId } = request.body;
    const [role] = await db.select().from(roles).where(and(eq(roles.companyId, auth.companyId), eq(roles.id, roleId)));
    if (!role) throw badRequest('roleId: no such role');
    if (!role.isActive) throw badRequest('roleId: this role is deactivated');
    const [taken] = await db.select({ id: users.id }).from(users).where(and(eq(users.companyId, auth.companyId), eq(users.email, email)));
    if (taken) throw conflict(EMAIL_TAKEN_MESSAGE);
    const [company] = await db.select().from(companies).where(eq(companies.id, auth.companyId));

    const temporary = await newTemporaryPassword();
    let invited: { user: typeof users.$inferSelect; token: string };
    try {
      invited = await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({ companyId: auth.companyId, email, firstName, lastName, roleId, status: 'invited', passwordHash: temporary.hash, createdBy: auth.userId })
          .returning();
        const token = await issueOneTimeToken(tx, ctx.secrets, { companyId: auth.companyId, userId: user.id }, 'activation');
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'user',
          operation: 'create',
          recordId: user.id,
          changes: { email, firstName, lastName, roleId, roleName: role.name, status: 'invited' },
        });
        return { user, token };
      });
    } catch (err) {
      // Two invitations racing for one address: the unique index decides.
      if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN_MESSAGE);
      throw err;
    }
    await mailInvitation(ctx, request, { user: invited.user, company, temporaryPassword: temporary.password, token: invited.token });
    return reply.code(201).send({
      message: `An invitation has been mailed to ${email}`,
      data: { id: invited.user.id, email, status: 'invited' },
    });
  });

  api.post('/user/verify', { config: { public: true }, schema: { body: activationTokenBody } }, async (request) => {
    const holder = await findTokenHolder(db, ctx.secrets, 'activation', request.body.token);
    if (!isPendingActivation(holder)) throw badRequest(ACTIVATION_LINK_INVALID_MESSAGE);
    return { message: 'The activation link is valid: choose your password', data: { email: holder.user.email } };
  });

  api.post('/user/password/create', { config: { public: true }, schema: { body: createPasswordBody } }, async (request) => {
    const { defaultPasswordToken, oldPassword, newPassword } = request.body;
    const holder = await findTokenHolder(db, ctx.secrets, 'activation', defaultPasswordToken);
    if (!isPendingActivation(holder)) throw badRequest(ACTIVATION_LINK_INVALID_MESSAGE);
    const { user } = holder;
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
      await recordAudit(tx, request, { companyId: user.companyId, userId: user.id, model: 'user', operation: 'activate', recordId: user.id, changes: { status: 'active' } });
      await recordAccessEvent(tx, request, { ...event, status: 'success' });
    });
    await clearFailures(db, limits[0].key);
    return { message: 'Your password is set and your account is active. Sign in with your new password.' };
  });

  api.post('/user/token/resend', { config: { public: true }, schema: { body: accountBody } }, async (request) => {
    await consumeRate(db, `resend:ip:${request.ip}`, RESEND_REQUESTS_PER_ADDRESS_PER_HOUR, 3600, 'activation mail requests from this address');
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
      await recordAudit(tx, request, { companyId: company.id, userId: user.id, model: 'user', operation: 'resend_invitation', recordId: user.id });
      return issued;
    });
    await mailInvitation(ctx, request, { user, company, temporaryPassword: temporary.password, token });
    return { message: RESEND_MESSAGE };
  });

  // ---- The signed-in user ----------------------------------------------------------------------

  api.get('/user/profile', async (request) => {
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
    return { message: 'Profile', user: { ...row, impersonator } };
  });

  api.get('/users/active', async (request) => {
    const auth = requireAuth(request);
    const rows = await db
      .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, roleName: roles.name, isAdmin: roles.isAdmin })
      .from(users)
      .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
      .where(and(eq(users.companyId, auth.companyId), eq(users.status, 'active'), eq(users.isActive, true)))
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.email));
    return { message: 'Active users', users: rows };
  });

  // ---- Preferences: small JSON values the console keeps per user (table layouts, filters, ...) ----

  const ownRow = (auth: { companyId: string; userId: string }) => and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId));

  api.get('/user/preferences', async (request) => {
    const auth = requireAuth(request);
    const [row] = await db.select({ preferences: users.preferences }).from(users).where(ownRow(auth));
    return { message: 'Preferences', data: row?.preferences ?? {} };
  });

  api.get('/user/preferences/:key', { schema: { params: preferenceParams } }, async (request) => {
    const auth = requireAuth(request);
    const { key } = request.params;
    const [row] = await db.select({ value: sql<unknown>`${users.preferences} -> ${key}` }).from(users).where(ownRow(auth));
    return { message: 'Preference', data: { [key]: row?.value ?? null } };
  });

  api.put('/user/preferences/:key', { schema: { params: preferenceParams, body: preferenceBody } }, async (request) => {
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
  });
}
