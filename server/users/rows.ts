import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { qualified, type Db } from '../db/client';
import { KeptAnswers } from '../db/table-watch';
import { notFound } from '../http/errors';
import { roles, users, workspaceMembers, workspaces } from '../db/schema';
import { idAmong, listPage, type ListAnswer, inlined, orderBy, orEmpty, searchText } from '../http/lists';
import { inAnyWorkspace, membersOf } from '../workspaces/members';
import type { SearchedList } from '../http/search';
import type { UserSortField, UserStatus } from '../../common/schemas/users';

/**
 * How users are read: one row shape for lists, a single user and the own profile. Secrets
 * (password, MPIN and two-factor hashes) and the avatar's bytes are never selected.
 */

/**
 * The status a user is listed with. A deactivated account is 'inactive' whatever its stored
 * status, so an invitation an admin withdrew does not keep showing as pending. ('active' and
 * 'invited' are the stored statuses that still count as a usable account.)
 */
export const listedStatus = sql<UserStatus>`case when ${users.isActive} and ${users.status} in ('active', 'invited') then ${users.status} else 'inactive' end`;

/**
 * The condition that matches users listed with this status (the same rule as listedStatus). The
 * statuses are written into the statement rather than sent as parameters: PostgreSQL then knows
 * how many users each matches when it makes one plan for every call of a filter, and reuses it
 * instead of planning each call.
 */
export function statusIs(status: UserStatus): SQL {
  switch (status) {
    case 'inactive':
      return sql`(not ${users.isActive} or ${users.status} not in ('active', 'invited'))`;
    case 'invited':
      return sql`(${users.status} = 'invited' and ${users.isActive})`;
    case 'active':
      return sql`(${users.status} = 'active' and ${users.isActive})`;
  }
}

export interface WorkspaceRef {
  id: string;
  name: string;
}

/**
 * A user's live workspaces as a JSON list of `{ id, name }`, by name: read in the same query as
 * the user. `userId` must be qualified (`"users"."id"`): inside the subquery a bare "id" would name
 * the workspace's, and Drizzle leaves columns of a one-table select unqualified.
 */
function workspacesOf(companyId: string, userId: SQL) {
  return sql<WorkspaceRef[]>`coalesce((
    select json_agg(json_build_object('id', w.id, 'name', w.name) order by lower(w.name), w.id)
    from ${workspaceMembers} m
    join ${workspaces} w on w.company_id = m.company_id and w.id = m.workspace_id and w.deleted_at is null
    where m.company_id = ${companyId} and m.user_id = ${userId}
  ), '[]'::json)`;
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

// The shape of a selected user, taken from the select itself.
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- only its type is used
function selectUsers(db: Db, where: SQL | undefined) {
  return db.select(userColumns).from(users).where(where).$dynamic();
}

type SelectedUser = Awaited<ReturnType<typeof selectUsers>>[number];
export type UserRow = SelectedUser & { roleName: string | null; isAdmin: boolean; workspaces: WorkspaceRef[] };

interface RoleRef {
  name: string;
  isAdmin: boolean;
}

/**
 * The company's roles by id, for the role name and admin flag of the users read: a company has
 * few roles and they seldom change, so they are kept until the roles table is written
 * (server/db/table-watch.ts) rather than joined into every page of users.
 */
async function rolesOf(db: Db, companyId: string): Promise<Map<string, RoleRef>> {
  const load = async () => {
    const rows = await db
      .select({ id: roles.id, name: roles.name, isAdmin: roles.isAdmin })
      .from(roles)
      .where(eq(roles.companyId, companyId));
    return new Map(rows.map((role) => [role.id, { name: role.name, isAdmin: role.isAdmin }]));
  };
  return roleMaps.read(db, companyId, ['roles'], load);
}
const roleMaps = new KeptAnswers<Map<string, RoleRef>>({ ttlMs: 15_000, maxEntries: 1_000 });

async function withRoles(db: Db, companyId: string, rows: Array<SelectedUser & { workspaces: WorkspaceRef[] }>): Promise<UserRow[]> {
  if (rows.length === 0) return [];
  const byId = await rolesOf(db, companyId);
  return rows.map((row) => {
    const role = row.roleId ? byId.get(row.roleId) : undefined;
    return { ...row, roleName: role?.name ?? null, isAdmin: role?.isAdmin ?? false };
  });
}

/** One user as the lists show it; a user the company does not have is a 404. */
export async function findUserRow(db: Db, companyId: string, userId: string): Promise<UserRow> {
  const found = await db
    .select({ ...userColumns, workspaces: workspacesOf(companyId, qualified('users', 'id')) })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  const [row] = await withRoles(db, companyId, found);
  if (!row) throw notFound('User');
  return row;
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

/** The users a list shows: conditions on the users row, and the workspaces they must be in (any of them). */
export interface UserSelection {
  where: SQL | undefined;
  workspaces: string[];
}

export const ALL_USERS: UserSelection = { where: undefined, workspaces: [] };

/**
 * What a users search matches: email, username and full name ("Ada Lovelace" is found), read
 * through users_search_trgm_idx (migration 0005).
 */
export const userSearchText = searchText(users.email, orEmpty(users.username), sql`${users.firstName} || ' ' || ${users.lastName}`);
export const usersSearch: SearchedList = {
  name: 'users',
  table: users,
  idColumn: users.id,
  text: userSearchText,
  companyColumn: users.companyId,
  newestColumn: users.createdAt,
};

/**
 * Where the users of a selection are read from: the ids of a page, and the table and conditions
 * its capped count reads. With a single workspace both go along that workspace's members (their
 * users' created_at is kept beside them, so the default order comes from the index): a workspace
 * holding a tenth of the users would otherwise be found by probing users newest first, and counted
 * by probing every user.
 */
function usersSource(db: Db, companyId: string, selection: UserSelection) {
  const page = (from: PgSelect, order: SQL[], offset: number, limit: number) =>
    from
      .orderBy(...order)
      .offset(inlined(offset))
      .limit(inlined(limit));
  if (selection.workspaces.length === 1) {
    const members = membersOf(companyId, selection.workspaces[0], selection.where);
    return {
      pageIds: (sort: UserSort, offset: number, limit: number) =>
        page(
          db.select({ id: users.id }).from(workspaceMembers).innerJoin(users, members.join).where(members.where).$dynamic(),
          sort.field === 'createdAt'
            ? [orderBy(workspaceMembers.userCreatedAt, sort.order), orderBy(workspaceMembers.userId, sort.order)]
            : sortOf(sort),
          offset,
          limit,
        ),
      countFrom: workspaceMembers,
      where: members.membersWhere,
    };
  }
  const where = and(eq(users.companyId, companyId), selection.where, inAnyWorkspace(selection.workspaces));
  return {
    pageIds: (sort: UserSort, offset: number, limit: number) =>
      page(db.select({ id: users.id }).from(users).where(where).$dynamic(), sortOf(sort), offset, limit),
    countFrom: users,
    where,
  };
}

/**
 * One page of users with their workspaces, in one query: the inner select cuts the page (its
 * order, offset and limit over the ids), and only the page's rows look up their workspaces.
 * (A workspace subquery beside the cut itself would run for every row skipped by the offset.)
 */
export async function listUsers(
  db: Db,
  companyId: string,
  selection: UserSelection,
  sort: UserSort,
  offset: number,
  limit: number,
): Promise<ListAnswer<UserRow>> {
  const { pageIds, countFrom, where } = usersSource(db, companyId, selection);
  const page = (o: number, l: number) =>
    db
      .select({ ...userColumns, workspaces: workspacesOf(companyId, qualified('users', 'id')) })
      .from(users)
      .where(idAmong(users.id, pageIds(sort, o, l)))
      .orderBy(...sortOf(sort));
  const answer = await listPage<SelectedUser & { workspaces: WorkspaceRef[] }>(db, { page, countFrom, where }, offset, limit);
  return { ...answer, rows: await withRoles(db, companyId, answer.rows) };
}
