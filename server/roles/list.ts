import { and, asc, count, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema';
import { ROLE_STATUSES, ROLE_TYPES } from '../../common/contract/roles';
import {
  anyOf,
  choiceFilter,
  choicesOf,
  filterBody,
  idChoiceFilter,
  orderBy,
  orderedPage,
  periodAndSearchFilters,
  searchFilter,
  searching,
  within,
  type Card,
  type Choice,
  type ListAnswer,
} from '../http/lists';
import { selectRoles, withUserCounts, type RoleRow } from './records';
import { userNameSql } from '../users/display-name';

export const ROLE_SORT_FIELDS = ['name', 'createdAt', 'updatedAt', 'type'] as const;

/** A value of a fixed set, or '' for no filter. One schema rather than a union, so the message names the set. */
const oneOf = (values: readonly string[]) =>
  z
    .string({ error: `must be one of ${values.join(', ')}` })
    .refine((value) => value === '' || values.includes(value), { message: `must be one of ${values.join(', ')}` });

export const roleFilterBody = filterBody({
  type: choiceFilter(oneOf(ROLE_TYPES)),
  user: idChoiceFilter,
  status: choiceFilter(oneOf(ROLE_STATUSES)),
  ...periodAndSearchFilters,
});
export type RoleFilter = Partial<z.output<typeof roleFilterBody>>;

export const roleSearchBody = filterBody({ search: searchFilter });

export type RoleSort = { field: (typeof ROLE_SORT_FIELDS)[number]; order: 'ASC' | 'DESC' };
/** The spec's default for the roles list: last changed first. */
export const DEFAULT_ROLE_SORT: RoleSort = { field: 'updatedAt', order: 'DESC' };

const sortColumns = { name: roles.name, createdAt: roles.createdAt, updatedAt: roles.updatedAt, type: roles.type } as const;

function statusCondition(statuses: readonly string[]): SQL | undefined {
  // Both or neither chosen: no filter.
  if (statuses.length !== 1) return undefined;
  return eq(roles.isActive, statuses[0] === 'active');
}

export function roleConditions(companyId: string, filter: RoleFilter): SQL | undefined {
  return and(
    eq(roles.companyId, companyId),
    anyOf(roles.type, filter.type ?? []),
    anyOf(roles.createdBy, filter.user ?? []),
    statusCondition(filter.status ?? []),
    within(roles.createdAt, filter.startDate ?? null, filter.endDate ?? null),
    searching([roles.name, roles.description], filter.search ?? ''),
  );
}

export async function listRoles(
  db: Db,
  companyId: string,
  filter: RoleFilter,
  sort: RoleSort,
  offset: number,
  limit: number,
): Promise<ListAnswer<RoleRow>> {
  const where = roleConditions(companyId, filter);
  // The id breaks ties, so paging through rows of equal sort value neither repeats nor skips one.
  const order = [orderBy(sortColumns[sort.field], sort.order), sort.order === 'ASC' ? asc(roles.id) : desc(roles.id)];
  const answer = await orderedPage(db, { select: () => selectRoles(db).$dynamic(), where, order, countFrom: roles }, offset, limit);
  return { ...answer, rows: await withUserCounts(db, companyId, answer.rows) };
}

export async function roleCards(db: Db, companyId: string): Promise<Card[]> {
  const [tally] = await db
    .select({
      total: count(),
      active: sql<number>`count(*) filter (where ${roles.isActive})`.mapWith(Number),
      custom: sql<number>`count(*) filter (where ${roles.type} = 'custom')`.mapWith(Number),
      system: sql<number>`count(*) filter (where ${roles.type} = 'system')`.mapWith(Number),
    })
    .from(roles)
    .where(eq(roles.companyId, companyId));
  return [
    { key: 'total', label: 'Roles', value: tally.total, link: '/roles' },
    { key: 'active', label: 'Active roles', value: tally.active },
    { key: 'inactive', label: 'Inactive roles', value: tally.total - tally.active },
    { key: 'custom', label: 'Custom roles', value: tally.custom },
    { key: 'system', label: 'System roles', value: tally.system },
  ];
}

/** The filter bar's choices: the role types, the users who created roles, the two statuses. */
export async function roleFilterProps(db: Db, companyId: string): Promise<{ type: Choice[]; user: Choice[]; status: Choice[] }> {
  const creators = await db
    .selectDistinct({
      id: users.id,
      name: userNameSql<string>(users),
    })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.createdBy, users.id)))
    .where(and(eq(users.companyId, companyId), isNotNull(roles.createdBy)));
  creators.sort((a, b) => a.name.localeCompare(b.name));
  return { type: choicesOf(ROLE_TYPES), user: creators, status: choicesOf(ROLE_STATUSES) };
}
