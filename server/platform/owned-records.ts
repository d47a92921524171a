import { and, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { usersWho } from '../audits/people';
import type { Db } from '../db/client';
import { anyOf, idChoiceFilter, periodAndSearchFilters, within, type Choice } from '../http/lists';
import { workspaceChoices } from '../workspaces/records';

/**
 * What the lists of records a user creates in a workspace (connections, tables, workflows) filter
 * on alike: who created them, in which workspace, when, and a text search.
 */
export const ownedFilterFields = {
  user: idChoiceFilter,
  workspace: idChoiceFilter,
  ...periodAndSearchFilters,
};

/** The columns those filters read. */
export interface OwnedColumns {
  companyId: AnyColumn;
  createdBy: AnyColumn;
  workspaceId: AnyColumn;
  createdAt: AnyColumn;
}

interface OwnedFilter {
  user?: string[];
  workspace?: string[];
  startDate?: Date | null;
  endDate?: Date | null;
}

/** The condition of the creator, workspace and date filters (the text search is each list's own). */
export function ownedConditions(columns: OwnedColumns, filter: OwnedFilter): SQL | undefined {
  return and(
    anyOf(columns.createdBy, filter.user ?? []),
    anyOf(columns.workspaceId, filter.workspace ?? []),
    within(columns.createdAt, filter.startDate ?? null, filter.endDate ?? null),
  );
}

/** The choices of the creator and workspace filters: the users who created a record of `table`, and the live workspaces. */
export async function ownedChoices(
  db: Db,
  companyId: string,
  table: PgTable & OwnedColumns,
): Promise<{ user: Choice[]; workspace: Choice[] }> {
  const [user, workspace] = await Promise.all([
    usersWho(
      db,
      companyId,
      (userId) => sql`exists (select 1 from ${table} where ${table.companyId} = ${companyId} and ${table.createdBy} = ${userId})`,
    ),
    workspaceChoices(db, companyId),
  ]);
  return { user, workspace };
}
