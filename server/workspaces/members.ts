import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users, workspaceMembers } from '../db/schema';

export interface Membership {
  userId: string;
  workspaceId: string;
}

/**
 * Adds users to workspaces. Each row carries its user's created_at, read in the same statement,
 * so that a workspace's members can be listed newest first from an index (schema.ts).
 */
export async function addMembers(db: Db, companyId: string, memberships: readonly Membership[]): Promise<void> {
  if (memberships.length === 0) return;
  await db.insert(workspaceMembers).values(
    memberships.map(({ userId, workspaceId }) => ({
      companyId,
      workspaceId,
      userId,
      userCreatedAt: sql`(select ${users.createdAt} from ${users} where ${users.companyId} = ${companyId} and ${users.id} = ${userId})`,
    })),
  );
}

/** "This user is in one of these workspaces", as a condition on the users table (the capped count can use it). */
export function inAnyWorkspace(workspaceIds: readonly string[]): SQL | undefined {
  if (workspaceIds.length === 0) return undefined;
  return sql`exists (select 1 from ${workspaceMembers} where ${workspaceMembers.companyId} = ${users.companyId} and ${workspaceMembers.userId} = ${users.id} and ${inArray(workspaceMembers.workspaceId, workspaceIds as string[])})`;
}

/**
 * The members of one workspace joined to their users rows: read along the workspace's index range.
 * The tenant is the membership's: addMembers only writes rows for users of the same company (their
 * created_at is read with it), and a user id is unique on its own. Repeating the company on the
 * users side would make PostgreSQL count the same condition twice, expect half the rows, and plan
 * the statement afresh on every call instead of reusing one plan.
 */
export function membersOf(companyId: string, workspaceId: string, usersWhere: SQL | undefined) {
  const join = eq(users.id, workspaceMembers.userId);
  const where = and(eq(workspaceMembers.companyId, companyId), eq(workspaceMembers.workspaceId, workspaceId), usersWhere)!;
  return {
    join,
    /** Conditions on both tables, for the page's join. */
    where,
    /** The same members as conditions on workspace_members alone (users through EXISTS), for the capped count: with no condition on users, an index-only count. */
    membersWhere: and(
      eq(workspaceMembers.companyId, companyId),
      eq(workspaceMembers.workspaceId, workspaceId),
      usersWhere ? sql`exists (select 1 from ${users} where ${join} and ${usersWhere})` : undefined,
    )!,
  };
}
