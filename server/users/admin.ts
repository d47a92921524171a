import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { adminUserEditSchema, demoUserSchema } from '../../common/schemas/users';
import { recordAccessEvent, recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import { hashPassword } from '../auth/passwords';
import { endAllSessionsOfUser } from '../auth/session-service';
import type { PlanSettings } from '../subscription/config';
import type { Db } from '../db/client';
import { apiKeys, authTokens, listColumnChoices, notifications, roles, userPolicies, users, workspaceMembers } from '../db/schema';
import { badRequest, forbidden, notFound } from '../http/errors';
import { notify } from '../notify';
import { assertNewUserAllowed } from '../settings/enforce';
import { assertWithinPlan } from '../subscription/limits';
import {
  ADMIN_ACCOUNT_ONLY_BY_ADMIN_MESSAGE,
  LAST_ADMIN_DEACTIVATE_MESSAGE,
  LAST_ADMIN_DELETE_MESSAGE,
  LAST_ADMIN_ROLE_MESSAGE,
  assertEmailFree,
  assertUsernameFree,
  assignableRole,
  changedFields,
  checkWorkspaces,
  isActiveAdmin,
  lockCompany,
  otherActiveAdmins,
  setWorkspaces,
  uniqueConflict,
  type RoleRow,
} from './rules';

/** Where a user reads about their own account in the console. */
export const OWN_PROFILE_LINK = '/profile';

type AdminEdit = z.output<typeof adminUserEditSchema>;
type DemoUser = z.output<typeof demoUserSchema>;
type UserRecord = typeof users.$inferSelect;

async function targetOf(db: Db, companyId: string, userId: string): Promise<{ user: UserRecord; role: RoleRow | null }> {
  const [row] = await db
    .select({ user: users, role: roles })
    .from(users)
    .leftJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  if (!row) throw notFound('User');
  return row;
}

/** A users/update or users/delete policy does not reach admins: only an admin may change an admin's account. */
function refuseAdminTargetForNonAdmin(auth: AuthContext, role: RoleRow | null): void {
  if (role?.isAdmin && !auth.isAdmin) throw forbidden(ADMIN_ACCOUNT_ONLY_BY_ADMIN_MESSAGE);
}

/**
 * PUT /user/profile/{id}: an admin's change to a user. Everything is checked before anything is
 * written; deactivation ends the user's sessions, a new role is told to the user, and the audit
 * entry holds the changed fields only.
 */
export async function editUser(db: Db, request: FastifyRequest, auth: AuthContext, userId: string, edit: AdminEdit): Promise<void> {
  const { user, role } = await targetOf(db, auth.companyId, userId);
  refuseAdminTargetForNonAdmin(auth, role);

  const roleChanges = edit.roleId !== undefined && edit.roleId !== user.roleId;
  const newRole = roleChanges ? await assignableRole(db, auth, edit.roleId!) : null;
  if (roleChanges && userId === auth.userId && !auth.isAdmin) throw forbidden('roleId: you cannot change your own role');
  if (edit.isActive === false && user.isActive && userId === auth.userId)
    throw badRequest('isActive: you cannot deactivate your own account');
  if (edit.workspaceIds) await checkWorkspaces(db, auth.companyId, edit.workspaceIds);
  if (edit.username) await assertUsernameFree(db, auth.companyId, edit.username, userId);

  const deactivating = edit.isActive === false && user.isActive;
  const demoting = !!newRole && !newRole.isAdmin;
  const next = {
    firstName: edit.firstName,
    lastName: edit.lastName,
    username: edit.username,
    phone: edit.phone,
    roleId: edit.roleId,
    isActive: edit.isActive,
    otpRequired: edit.otpRequired,
  };
  const fieldChanges = changedFields(user, next);

  try {
    await db.transaction(async (tx) => {
      if (isActiveAdmin(user, role) && (deactivating || demoting)) {
        await lockCompany(tx, auth.companyId);
        if ((await otherActiveAdmins(tx, auth.companyId, userId)) === 0) {
          throw badRequest(deactivating ? LAST_ADMIN_DEACTIVATE_MESSAGE : LAST_ADMIN_ROLE_MESSAGE);
        }
      }
      const workspaceChange = edit.workspaceIds ? await setWorkspaces(tx, auth.companyId, userId, edit.workspaceIds) : null;
      const changes = fieldChanges ?? { before: {}, after: {} };
      if (workspaceChange && JSON.stringify(workspaceChange.before) !== JSON.stringify(workspaceChange.after)) {
        changes.before.workspaceIds = workspaceChange.before;
        changes.after.workspaceIds = workspaceChange.after;
      }
      if (Object.keys(changes.after).length === 0) return;

      if (fieldChanges) {
        await tx
          .update(users)
          .set({ ...(fieldChanges.after as Partial<typeof users.$inferInsert>), updatedAt: new Date() })
          .where(and(eq(users.companyId, auth.companyId), eq(users.id, userId)));
      }
      if (newRole) {
        changes.before.roleName = role?.name ?? null;
        changes.after.roleName = newRole.name;
        await notify(tx, {
          companyId: auth.companyId,
          to: [userId],
          type: 'role_changed',
          title: 'Your role has changed',
          message: role ? `Your role is now ${newRole.name} (it was ${role.name}).` : `Your role is now ${newRole.name}.`,
          link: OWN_PROFILE_LINK,
          createdBy: auth.userId,
        });
      }
      if (deactivating) {
        const ended = await endAllSessionsOfUser(tx, auth.companyId, userId, 'user_deactivated');
        if (ended > 0) {
          await recordAccessEvent(tx, request, {
            companyId: auth.companyId,
            userId,
            email: user.email,
            event: 'session_end',
            status: 'success',
            reason: 'user_deactivated',
          });
        }
      }
      await recordAudit(tx, request, { companyId: auth.companyId, model: 'user', operation: 'update', recordId: userId, changes });
    });
  } catch (err) {
    throw uniqueConflict(err) ?? err;
  }
}

/**
 * DELETE /users/{id}: removes the user and what hangs on them alone (workspace memberships, own
 * policies, pending links, notifications, column choices), ends their sessions and turns off the
 * API keys that acted as them. Audits and access events keep their history.
 */
export async function deleteUser(db: Db, request: FastifyRequest, auth: AuthContext, userId: string): Promise<UserRecord> {
  const { user, role } = await targetOf(db, auth.companyId, userId);
  refuseAdminTargetForNonAdmin(auth, role);
  if (userId === auth.userId) throw badRequest('id: you cannot delete your own account');

  await db.transaction(async (tx) => {
    if (isActiveAdmin(user, role)) {
      await lockCompany(tx, auth.companyId);
      if ((await otherActiveAdmins(tx, auth.companyId, userId)) === 0) throw badRequest(LAST_ADMIN_DELETE_MESSAGE);
    }
    const company = auth.companyId;
    const ended = await endAllSessionsOfUser(tx, company, userId, 'user_deactivated');
    if (ended > 0) {
      await recordAccessEvent(tx, request, {
        companyId: company,
        userId,
        email: user.email,
        event: 'session_end',
        status: 'success',
        reason: 'user_deleted',
      });
    }
    await tx.delete(workspaceMembers).where(and(eq(workspaceMembers.companyId, company), eq(workspaceMembers.userId, userId)));
    await tx.delete(userPolicies).where(and(eq(userPolicies.companyId, company), eq(userPolicies.userId, userId)));
    await tx.delete(authTokens).where(and(eq(authTokens.companyId, company), eq(authTokens.userId, userId)));
    await tx.delete(notifications).where(and(eq(notifications.companyId, company), eq(notifications.userId, userId)));
    await tx.delete(listColumnChoices).where(and(eq(listColumnChoices.companyId, company), eq(listColumnChoices.userId, userId)));
    await tx
      .update(apiKeys)
      .set({ isActive: false, updatedAt: new Date() })
      .where(and(eq(apiKeys.companyId, company), eq(apiKeys.accessUserId, userId), eq(apiKeys.isActive, true)));
    await tx.delete(users).where(and(eq(users.companyId, company), eq(users.id, userId)));
    await recordAudit(tx, request, {
      companyId: company,
      model: 'user',
      operation: 'delete',
      recordId: userId,
      changes: {
        before: {
          email: user.email,
          username: user.username,
          firstName: user.firstName,
          lastName: user.lastName,
          roleId: user.roleId,
          roleName: role?.name ?? null,
          status: user.status,
          isActive: user.isActive,
        },
      },
    });
  });
  return user;
}

/**
 * POST /client/createUser: a demo or test account, active at once with the password given (no
 * invitation mail), within the company's plan; gives its id.
 */
export async function createDemoUser(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  plans: Pick<PlanSettings, 'defaultPlan'>,
  demo: DemoUser,
): Promise<string> {
  const { email, username, firstName, lastName, password, roleId } = demo;
  await assertNewUserAllowed(db, auth.companyId, { email, password });
  const role = await assignableRole(db, auth, roleId);
  await assertEmailFree(db, auth.companyId, email);
  await assertUsernameFree(db, auth.companyId, username);
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      await assertWithinPlan(tx, plans, auth.companyId, 'users');
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
}
