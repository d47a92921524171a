import { and, asc, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema';
import { workspaceChoices } from '../workspaces/records';
import { anyOf, choicesOf, filterBody, idChoiceFilter, periodAndSearchFilters, textChoiceFilter, within, type Choice } from '../http/lists';
import { USER_STATUSES, type UserStatus } from '../../common/schemas/users';
import { statusIs, usersSearch, type UserSelection } from './rows';
import { searchCondition } from '../http/search';

const statusFilter = textChoiceFilter.refine((values) => values.every((v) => (USER_STATUSES as readonly string[]).includes(v)), {
  message: `must be one of ${USER_STATUSES.join(', ')}`,
});

/** The users filter: exactly the spec's fields. */
export const userFilterBody = filterBody({
  workspace: idChoiceFilter,
  role: idChoiceFilter,
  status: statusFilter,
  ...periodAndSearchFilters,
});
export type UserFilter = z.output<typeof userFilterBody>;

/**
 * The filter as the users it selects: conditions on the users row, and the workspaces they must
 * be in (kept apart, so that the page of one workspace's members can be read along its index).
 */
export async function userSelection(db: Db, companyId: string, body: UserFilter): Promise<UserSelection> {
  // filterBody answers {} for a missing body, without the fields' own defaults.
  const statuses = (body.status ?? []) as UserStatus[];
  return {
    where: and(
      anyOf(users.roleId, body.role ?? []),
      statuses.length > 0 ? or(...statuses.map(statusIs)) : undefined,
      within(users.createdAt, body.startDate ?? null, body.endDate ?? null),
      await searchCondition(db, usersSearch, companyId, body.search ?? ''),
    ),
    workspaces: body.workspace ?? [],
  };
}

const STATUS_LABELS: Record<UserStatus, string> = { active: 'Active', invited: 'Invited', inactive: 'Inactive' };

/** The choices of the users filter bar. */
export async function userFilterProps(db: Db, companyId: string): Promise<{ workspace: Choice[]; role: Choice[]; status: Choice[] }> {
  const [workspace, roleChoices] = await Promise.all([
    workspaceChoices(db, companyId),
    // Every role, deactivated ones too: users may still hold them and be looked for by them.
    db
      .select({ id: roles.id, name: roles.name })
      .from(roles)
      .where(eq(roles.companyId, companyId))
      .orderBy(asc(sql`lower(${roles.name})`)),
  ]);
  return {
    workspace,
    role: roleChoices,
    status: choicesOf(USER_STATUSES, (s) => STATUS_LABELS[s as UserStatus]),
  };
}
