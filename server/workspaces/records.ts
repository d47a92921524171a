import { and, asc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { users, workspaceMembers, workspaces } from '../db/schema';
import { badRequest } from '../http/errors';
import { userNameSql } from '../users/display-name';

const creators = alias(users, 'workspace_creators');

/** What the console shows of a workspace. */
export const workspaceColumns = {
  id: workspaces.id,
  name: workspaces.name,
  description: workspaces.description,
  isActive: workspaces.isActive,
  memberCount:
    sql<number>`(select count(*) from ${workspaceMembers} where ${workspaceMembers.companyId} = ${workspaces.companyId} and ${workspaceMembers.workspaceId} = ${workspaces.id})`.mapWith(
      Number,
    ),
  createdAt: workspaces.createdAt,
  updatedAt: workspaces.updatedAt,
  createdBy: workspaces.createdBy,
  createdByName: userNameSql(creators),
};

export type WorkspaceRow = {
  id: string;
  name: string;
  description: string;
  isActive: boolean;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
  createdBy: string | null;
  createdByName: string | null;
};

/** The company's workspaces that are not deleted, with `extra` conditions. */
export const liveWorkspaces = (companyId: string, extra?: SQL) =>
  and(eq(workspaces.companyId, companyId), isNull(workspaces.deletedAt), extra);

export function selectWorkspaces(db: Db) {
  return db
    .select(workspaceColumns)
    .from(workspaces)
    .leftJoin(creators, and(eq(creators.companyId, workspaces.companyId), eq(creators.id, workspaces.createdBy)));
}

export async function findWorkspace(db: Db, companyId: string, id: string): Promise<WorkspaceRow | undefined> {
  const [row] = await selectWorkspaces(db).where(liveWorkspaces(companyId, eq(workspaces.id, id)));
  return row;
}

/** Whether another live workspace of the company already has this name, in any case. */
export async function nameTaken(db: Db, companyId: string, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(
      liveWorkspaces(companyId, and(sql`lower(${workspaces.name}) = lower(${name})`, exceptId ? ne(workspaces.id, exceptId) : undefined)),
    )
    .limit(1);
  return !!row;
}

/** The company's workspaces that are not deleted, by name, as filter choices. */
export function workspaceChoices(db: Db, companyId: string): Promise<Array<{ id: string; name: string }>> {
  return db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(liveWorkspaces(companyId))
    .orderBy(asc(sql`lower(${workspaces.name})`));
}

/** A workspace id a body names: null when none is given; a deleted or unknown one is a 400 naming `field`. */
export async function liveWorkspaceId(
  db: Db,
  companyId: string,
  id: string | null | undefined,
  field = 'workspaceId',
): Promise<string | null> {
  if (!id) return null;
  const [found] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(liveWorkspaces(companyId, eq(workspaces.id, id)));
  if (!found) throw badRequest(`${field}: no such workspace`);
  return id;
}
