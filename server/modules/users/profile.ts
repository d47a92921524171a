import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, sql } from 'drizzle-orm';
import { activeUsersAnswer, usersContract } from '../../../common/contract/users';
import { refuseWhileImpersonating } from '../../auth/impersonation';
import { hashPassword } from '../../auth/passwords';
import { isAllowed } from '../../auth/policies';
import { findImpersonator } from '../../auth/session-user';
import { companies, roles, users } from '../../db/schema';
import { forbidden, notFound, unauthorized } from '../../http/errors';
import { actionRoute } from '../../platform/action-route';
import { answerRoute, type RouteBase } from '../../platform/answer-route';
import { audited } from '../../platform/audited';
import { profileCards } from '../../users/cards';
import { avatarOf, updateOwnProfile } from '../../users/profile';
import { findUserRow } from '../../users/rows';
import { ownRow } from './repository';

const TAGS = ['Users'];
const { actions } = usersContract;
const signedIn: RouteBase = { config: {}, tags: TAGS };

/**
 * The signed-in user's own account (profile, picture, MPIN, notifications), what any user may see
 * of the others (pictures, the active users, one's own activity), and an admin's MPIN for anyone.
 * Served from the contract's actions: the profile's change `/user/profile`, the picture
 * `/user/avatar/{id}`, the activity cards
 * `/user/profile/cards/{userId}/{days}`, the MPIN `/user/mpin/create/{id}` and the AI
 * notifications `/user/notification`.
 */
export function registerProfileRoutes(app: FastifyInstance): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  actionRoute(app, signedIn, actions.ownProfile, async ({ auth }) => {
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
      .where(ownRow(auth));
    if (!row) throw unauthorized();
    // The admin behind an impersonation, so a reloaded console can still show who is acting.
    const impersonator = auth.impersonatorUserId ? await findImpersonator(db, auth.companyId, auth.impersonatorUserId) : null;
    // `data` is the full record, as the users list shows it (phone, picture, preferences of notice...).
    return { message: 'Profile', user: { ...row, impersonator }, data: await findUserRow(db, auth.companyId, auth.userId) };
  });

  // The form (or a JSON body) is read by updateOwnProfile.
  actionRoute(app, signedIn, actions.saveProfile, async ({ auth, request }) => {
    await updateOwnProfile(db, request, auth);
    return { message: 'Your profile has been saved', data: await findUserRow(db, auth.companyId, auth.userId) };
  });

  actionRoute(app, signedIn, actions.avatar, async ({ auth, params: { id } }) => {
    const avatar = await avatarOf(db, auth.companyId, id);
    return {
      body: avatar.bytes,
      type: avatar.type,
      headers: { 'cache-control': 'private, max-age=300', 'x-content-type-options': 'nosniff' },
    };
  });

  actionRoute(app, signedIn, actions.activityCards, async ({ auth, params: { userId, days } }) => {
    if (userId !== auth.userId && !(await isAllowed(db, auth, 'users', 'read'))) throw forbidden();
    const [target] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, auth.companyId), eq(users.id, userId)));
    if (!target) throw notFound('User');
    return { message: 'Profile cards', data: { cards: await profileCards(db, auth.companyId, userId, Number(days)) } };
  });

  /** An MPIN: one's own, or anyone's for an admin. A credential, so never through an API key or an impersonation. */
  actionRoute(app, { config: { apiKeys: false }, tags: TAGS }, actions.setMpin, async ({ auth, params: { id }, body, request }) => {
    refuseWhileImpersonating(auth);
    if (id !== auth.userId && !auth.isAdmin) throw forbidden();
    const [target] = await db
      .select({ id: users.id, email: users.email, hasMpin: sql<boolean>`${users.mpinHash} is not null` })
      .from(users)
      .where(and(eq(users.companyId, auth.companyId), eq(users.id, id)));
    if (!target) throw notFound('User');
    const mpinHash = await hashPassword(body.mpin);
    await audited(
      db,
      request,
      (tx) =>
        tx
          .update(users)
          .set({ mpinHash, updatedAt: new Date() })
          .where(and(eq(users.companyId, auth.companyId), eq(users.id, id))),
      {
        companyId: auth.companyId,
        model: 'user',
        operation: 'set_mpin',
        recordId: id,
        changes: { before: { mpin: target.hasMpin ? 'set' : 'none' }, after: { mpin: 'set' } },
      },
    );
    return { message: id === auth.userId ? 'Your MPIN has been saved' : `The MPIN of ${target.email} has been saved` };
  });

  actionRoute(app, signedIn, actions.aiNotification, async ({ auth, body: { aiNotification }, request }) => {
    const [current] = await db.select({ aiNotification: users.aiNotification }).from(users).where(ownRow(auth));
    if (!current) throw unauthorized();
    if (current.aiNotification !== aiNotification) {
      await audited(db, request, (tx) => tx.update(users).set({ aiNotification, updatedAt: new Date() }).where(ownRow(auth)), {
        companyId: auth.companyId,
        model: 'user',
        operation: 'update_notification',
        recordId: auth.userId,
        changes: { before: { aiNotification: current.aiNotification }, after: { aiNotification } },
      });
    }
    return { message: aiNotification ? 'AI notifications are on' : 'AI notifications are off', data: { aiNotification } };
  });

  answerRoute(
    app,
    signedIn,
    { method: 'GET', path: '/users/active', summary: 'List the active users', answer: activeUsersAnswer },
    async ({ auth }) => {
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
}
