import { and, asc, desc, eq, inArray, isNull, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { roles, users, workspaceMembers, workspaces } from '../db/schema';
import { listPage, type ListAnswer } from '../http/lists';
import type { UserSortField, UserStatus } from '../../common/schemas/users';

/**
 * How users are read: one row shape for lists, a single user and the own profile. Secrets
 * (password, MPIN and two-factor hashes) and the avatar's bytes are never selected.
 */

/** Stored statuses that still count as a usable account; anything else lists as inactive. */
const LIVE_STATUSES = ['active', 'invited'];

/**
 * The status a user is listed with. A deactivated account is 'inactive' whatever its stored
 * status, so an invitation an admin withdrew does not keep showing as pending.
 */
export const listedStatus = sql<UserStatus>`case when ${users.isActive} and ${users.status} in ('active', 'invited') then ${users.status} else 'inactive' end`;

/** The condition that matches users listed with this status (the same rule as listedStatus). */
export function statusIs(status: UserStatus): SQL {
  switch (status) {
    case 'inactive':
      return or(eq(users.isActive, false), notInArray(users.status, LIVE_STATUSES))!;
    case 'invited':
      return and(eq(users.status, 'invited'), eq(users.isActive, true))!;
    case 'active':
      return and(eq(users.status, 'active'), eq(users.isActive, true))!;
  }
}

export const userColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  phone: users.phone,
  status: listedStatus,
  isActive: users.isActive,
  roleId: users.roleId,
  roleName: roles.name,
  isAdmin: sql<boolean>`coalesce(${roles.isAdmin}, false)`,
  otpEnabled: users.otpEnabled,
  otpRequired: users.otpRequired,
  aiNotification: users.aiNotification,
  /** Whether GET /user/avatar/{id} has a picture to give. */
  hasAvatar: sql<boolean>`${users.avatarType} is not null`,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  createdBy: users.createdBy,
};

export interface WorkspaceRef {
  id: string;
  name: string;
}

function selectUsers(db: Db, where: SQL | undefined) {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(where)
    .$dynamic();
}

type SelectedUser = Awaited<ReturnType<typeof selectUsers>>[number];
export type UserRow = SelectedUser & { workspaces: WorkspaceRef[] };

/** The workspaces of each user of a page, in one query for the whole page. */
export async function workspacesOf(db: Db, companyId: string, userIds: string[]): Promise<Map<string, WorkspaceRef[]>> {
  const byUser = new Map<string, WorkspaceRef[]>();
  if (userIds.length === 0) return byUser;
  const links = await db
    .select({ userId: workspaceMembers.userId, id: workspaces.id, name: workspaces.name })
    .from(workspaceMembers)
    .innerJoin(
      workspaces,
      and(eq(workspaces.companyId, workspaceMembers.companyId), eq(workspaces.id, workspaceMembers.workspaceId), isNull(workspaces.deletedAt)),
    )
    .where(and(eq(workspaceMembers.companyId, companyId), inArray(workspaceMembers.userId, userIds)))
    .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaces.id));
  for (const link of links) {
    const list = byUser.get(link.userId) ?? [];
    list.push({ id: link.id, name: link.name });
    byUser.set(link.userId, list);
  }
  return byUser;
}

async function withWorkspaces(db: Db, companyId: string, rows: SelectedUser[]): Promise<UserRow[]> {
  const byUser = await workspacesOf(db, companyId, rows.map((r) => r.id));
  return rows.map((row) => ({ ...row, workspaces: byUser.get(row.id) ?? [] }));
}

export async function findUserRow(db: Db, companyId: string, userId: string): Promise<UserRow | null> {
  const [row] = await selectUsers(db, and(eq(users.companyId, companyId), eq(users.id, userId)));
  if (!row) return null;
  const [withLinks] = await withWorkspaces(db, companyId, [row]);
  return withLinks;
}

const SORT_COLUMNS: Record<UserSortField, SQL> = {
  createdAt: sql`${users.createdAt}`,
  updatedAt: sql`${users.updatedAt}`,
  email: sql`${users.email}`,
  firstName: sql`lower(${users.firstName})`,
  lastName: sql`lower(${users.lastName})`,
  lastLoginAt: sql`${users.lastLoginAt}`,
  status: listedStatus,
};

export interface UserSort {
  field: UserSortField;
  order: 'ASC' | 'DESC';
}

export const DEFAULT_USER_SORT: UserSort = { field: 'createdAt', order: 'DESC' };

/** The sort, then the id in the same direction, so that rows with equal keys keep their place between pages. */
function sortOf({ field, order }: UserSort): SQL[] {
  const column = SORT_COLUMNS[field];
  const direction = order === 'ASC' ? sql`asc` : sql`desc`;
  // Users who never signed in go last either way: they say nothing about recent sign-ins.
  const nulls = field === 'lastLoginAt' ? sql` nulls last` : sql``;
  return [sql`${column} ${direction}${nulls}`, order === 'ASC' ? asc(users.id) : desc(users.id)];
}

export async function listUsers(
  db: Db,
  companyId: string,
  where: SQL | undefined,
  sort: UserSort,
  offset: number,
  limit: number,
): Promise<ListAnswer<UserRow>> {
  const condition = and(eq(users.companyId, companyId), where);
  const answer = await listPage(
    db,
    {
      page: (o, l) =>
        selectUsers(db, condition)
          .orderBy(...sortOf(sort))
          .offset(o)
          .limit(l),
      countFrom: users,
      where: condition,
    },
    offset,
    limit,
  );
  return { ...answer, rows: await withWorkspaces(db, companyId, answer.rows) };
}
