import { and, count, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema';
import { notFound } from '../http/errors';
import { allPolicies, rolePolicyList, type Policy } from '../auth/policies';
import { cataloguePages, rolePageIds } from '../auth/pages-catalogue';
import { userNameSql } from '../users/display-name';

/** Whoever created a role; system roles have none. */
const creators = alias(users, 'creators');

/** A user's name as lists show it: first and last name, or the email when both are empty. */
const creatorName = userNameSql(creators);

const roleColumns = {
  id: roles.id,
  name: roles.name,
  description: roles.description,
  type: roles.type,
  isAdmin: roles.isAdmin,
  isActive: roles.isActive,
  createdAt: roles.createdAt,
  updatedAt: roles.updatedAt,
  createdBy: roles.createdBy,
  createdByName: creatorName,
};

/** A select of roles with the creator's name; the caller adds conditions, order and paging. */
export function selectRoles(db: Db) {
  return db
    .select(roleColumns)
    .from(roles)
    .leftJoin(creators, and(eq(creators.companyId, roles.companyId), eq(creators.id, roles.createdBy)));
}

type SelectedRole = Awaited<ReturnType<ReturnType<typeof selectRoles>['execute']>>[number];
export type RoleRow = SelectedRole & { userCount: number };
export type RoleDetail = RoleRow & { policies: Policy[]; pageIds: string[] };

/** How many users hold each of these roles: one grouped query for a whole page of rows. */
export async function userCounts(db: Db, companyId: string, roleIds: string[]): Promise<Map<string, number>> {
  if (roleIds.length === 0) return new Map();
  const rows = await db
    .select({ roleId: users.roleId, n: count() })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.roleId, roleIds)))
    .groupBy(users.roleId);
  return new Map(rows.map((r) => [r.roleId, r.n]));
}

export async function withUserCounts(db: Db, companyId: string, rows: SelectedRole[]): Promise<RoleRow[]> {
  const counts = await userCounts(
    db,
    companyId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, userCount: counts.get(r.id) ?? 0 }));
}

/** One role of the company with its user count, or 404 "Role not found" (also for another company's role). */
export async function findRole(db: Db, companyId: string, roleId: string): Promise<RoleRow> {
  const [row] = await selectRoles(db).where(and(eq(roles.companyId, companyId), eq(roles.id, roleId)));
  if (!row) throw notFound('Role');
  const [withCount] = await withUserCounts(db, companyId, [row]);
  return withCount;
}

/** What a role may do: everything for an admin role, whatever is stored for it. */
export async function policiesOfRole(db: Db, role: { id: string; isAdmin: boolean }, companyId: string): Promise<Policy[]> {
  return role.isAdmin ? allPolicies() : rolePolicyList(db, companyId, role.id);
}

/** A role's page ids in catalogue (menu) order. */
export async function pageIdsOfRole(db: Db, companyId: string, roleId: string): Promise<string[]> {
  return cataloguePages(await rolePageIds(db, companyId, roleId)).map((p) => p.id);
}

export async function roleDetail(db: Db, companyId: string, roleId: string): Promise<RoleDetail> {
  const role = await findRole(db, companyId, roleId);
  const [policies, pageIds] = await Promise.all([policiesOfRole(db, role, companyId), pageIdsOfRole(db, companyId, roleId)]);
  return { ...role, policies, pageIds };
}

/** Active users holding the role, to be told when what it allows changes. */
export async function activeHolderIds(db: Db, companyId: string, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.roleId, roleId), eq(users.status, 'active'), eq(users.isActive, true)));
  return rows.map((r) => r.id);
}

/** Pages as the policy editor shows them. */
export function pageView(pageIds: Iterable<string>) {
  return cataloguePages(pageIds).map(({ id, title, url, group, icon, adminOnly }) => ({
    id,
    title,
    url,
    group,
    icon,
    adminOnly: adminOnly ?? false,
  }));
}
