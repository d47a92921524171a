import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { companies, roles, users, workspaceMembers, workspaces } from '../db/schema';
import type { AuthContext } from '../auth/guard';
import { badRequest, conflict, forbidden } from '../http/errors';
import { addMembers } from '../workspaces/members';

/** Business rules of the users area that need the database: roles, workspaces, usernames, admins. */

export const EMAIL_TAKEN_MESSAGE = 'A user with this email already exists';
export const USERNAME_TAKEN_MESSAGE = 'username: is already taken';
export const LAST_ADMIN_DEACTIVATE_MESSAGE = 'isActive: the last active admin cannot be deactivated';
export const LAST_ADMIN_ROLE_MESSAGE = 'roleId: the last active admin must keep an admin role';
export const LAST_ADMIN_DELETE_MESSAGE = 'id: the last active admin cannot be deleted';
export const ADMIN_ROLE_ONLY_BY_ADMIN_MESSAGE = 'roleId: only an admin can give an admin role';
export const ADMIN_ACCOUNT_ONLY_BY_ADMIN_MESSAGE = "Only an admin can change an admin's account";

export type RoleRow = typeof roles.$inferSelect;

/**
 * A role the caller may give: of the company, active, and an admin role only when the caller is
 * an admin (a users/create or users/update policy must not be a way to become admin).
 */
export async function assignableRole(db: Db, auth: AuthContext, roleId: string): Promise<RoleRow> {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.companyId, auth.companyId), eq(roles.id, roleId)));
  if (!role) throw badRequest('roleId: no such role');
  if (!role.isActive) throw badRequest('roleId: this role is deactivated');
  if (role.isAdmin && !auth.isAdmin) throw forbidden(ADMIN_ROLE_ONLY_BY_ADMIN_MESSAGE);
  return role;
}

/** Workspaces of the company that are not deleted; any other id is refused by name. */
export async function checkWorkspaces(db: Db, companyId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.companyId, companyId), inArray(workspaces.id, ids), isNull(workspaces.deletedAt)));
  const known = new Set(found.map((w) => w.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing) throw badRequest(`workspaceIds: no such workspace (${missing})`);
}

/** Replaces the user's workspaces; answers the ids before and after, for the audit. */
export async function setWorkspaces(
  db: Db,
  companyId: string,
  userId: string,
  ids: string[],
): Promise<{ before: string[]; after: string[] }> {
  const current = await db
    .select({ id: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.companyId, companyId), eq(workspaceMembers.userId, userId)));
  const before = current.map((w) => w.id).sort();
  const after = [...ids].sort();
  const gone = before.filter((id) => !after.includes(id));
  const added = after.filter((id) => !before.includes(id));
  if (gone.length > 0) {
    await db
      .delete(workspaceMembers)
      .where(
        and(eq(workspaceMembers.companyId, companyId), eq(workspaceMembers.userId, userId), inArray(workspaceMembers.workspaceId, gone)),
      );
  }
  if (added.length > 0) {
    await addMembers(
      db,
      companyId,
      added.map((workspaceId) => ({ userId, workspaceId })),
    );
  }
  return { before, after };
}

/** Whether a user other than `exceptUserId` holds the name (usernames are unique per company, in any case). */
export async function usernameTaken(db: Db, companyId: string, name: string, exceptUserId?: string | null): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(sql`lower(${users.username})`, name.toLowerCase()),
        exceptUserId ? ne(users.id, exceptUserId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function assertUsernameFree(
  db: Db,
  companyId: string,
  name: string | null | undefined,
  exceptUserId?: string | null,
): Promise<void> {
  if (name && (await usernameTaken(db, companyId, name, exceptUserId))) throw conflict(USERNAME_TAKEN_MESSAGE);
}

export async function assertEmailFree(db: Db, companyId: string, email: string): Promise<void> {
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.email, email)))
    .limit(1);
  if (taken) throw conflict(EMAIL_TAKEN_MESSAGE);
}

/**
 * Serialises changes that could leave a company without an admin: two admins demoting each
 * other at the same moment would otherwise both see the other one still there.
 */
export async function lockCompany(db: Db, companyId: string): Promise<void> {
  await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

/** Someone who can administer the company now: an admin role, an activated account, not deactivated. */
export function isActiveAdmin(user: { isActive: boolean; status: string }, role: { isAdmin: boolean; isActive: boolean } | null): boolean {
  return !!role && role.isAdmin && role.isActive && user.isActive && user.status === 'active';
}

export async function otherActiveAdmins(db: Db, companyId: string, userId: string): Promise<number> {
  const [{ n }] = await db
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(users.companyId, companyId),
        ne(users.id, userId),
        eq(roles.isAdmin, true),
        eq(roles.isActive, true),
        eq(users.isActive, true),
        eq(users.status, 'active'),
      ),
    );
  return n;
}

/** The name of the unique index a write ran into, or null (drizzle wraps the driver's error, so look through the causes). */
export function violatedUniqueIndex(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++, e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
  }
  return null;
}

/** Turns a unique-index race into the same 409 the checks before it give. */
export function uniqueConflict(err: unknown): Error | null {
  const index = violatedUniqueIndex(err);
  if (index === null) return null;
  if (index.includes('username')) return conflict(USERNAME_TAKEN_MESSAGE);
  return conflict(EMAIL_TAKEN_MESSAGE);
}

/** One message naming each field, the way the app's validation errors read: "firstName: is required; phone: …". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'body'}: ${issue.message}`)
    .join('; ');
}

/** Before and after of the fields that changed, for an audit entry: unchanged fields are left out. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | null {
  const changes = { before: {} as Record<string, unknown>, after: {} as Record<string, unknown> };
  for (const key of Object.keys(after)) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    changes.before[key] = before[key] ?? null;
    changes.after[key] = after[key];
  }
  return Object.keys(changes.after).length > 0 ? changes : null;
}

/** Active admins of the company other than one user (who should not be told of their own doing). */
export async function activeAdminIds(db: Db, companyId: string, exceptUserId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(
      and(
        eq(users.companyId, companyId),
        ne(users.id, exceptUserId),
        eq(roles.isAdmin, true),
        eq(users.isActive, true),
        eq(users.status, 'active'),
      ),
    );
  return rows.map((r) => r.id);
}
