import { and, asc, desc, eq, exists, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { companyKeys, readApiKey, selectApiKeys, type ApiKeyRow } from '../../apikeys/records';
import { auditView } from '../../apikeys/service';
import type { Db } from '../../db/client';
import { apiKeys, users } from '../../db/schema';
import { badRequest } from '../../http/errors';
import {
  anyOf,
  booleanFilter,
  booleanIs,
  counted,
  filterBody,
  idChoiceFilter,
  labelledChoices,
  orderedPage,
  periodAndSearchFilters,
  searching,
  within,
  type Choice,
} from '../../http/lists';
import type { EntityRepository } from '../../platform/entity-routes';
import type { ListSort } from '../../../common/contract/routes';
import { sortedOrder } from '../../platform/list-sort';
import { userNameSql } from '../../users/display-name';

const RECENT_USE_DAYS = 7;

export const apiKeyFilterBody = filterBody({
  accessUser: idChoiceFilter,
  createduser: idChoiceFilter,
  isActive: booleanFilter,
  isDeleted: booleanFilter,
  ...periodAndSearchFilters,
});

/** The filled fields of a filter body. */
type ApiKeyFilter = Partial<z.output<typeof apiKeyFilterBody>>;

function filtered(db: Db, f: ApiKeyFilter): SQL | undefined {
  const pattern = f.search;
  return and(
    anyOf(apiKeys.accessUserId, f.accessUser ?? []),
    anyOf(apiKeys.createdBy, f.createduser ?? []),
    booleanIs(apiKeys.isActive, f.isActive ?? []),
    // Deleted keys are shown only when asked for.
    f.isDeleted ? booleanIs(apiKeys.isDeleted, f.isDeleted) : eq(apiKeys.isDeleted, false),
    within(apiKeys.createdAt, f.startDate ?? null, f.endDate ?? null),
    pattern
      ? or(
          searching([apiKeys.name, apiKeys.prefix], pattern),
          exists(
            db
              .select({ one: sql`1` })
              .from(users)
              .where(
                and(
                  eq(users.companyId, apiKeys.companyId),
                  eq(users.id, apiKeys.accessUserId),
                  searching([users.email, users.firstName, users.lastName, sql`${users.firstName} || ' ' || ${users.lastName}`], pattern),
                ),
              ),
          ),
        )
      : undefined,
  );
}

/** The columns the key lists sort by (the contract's sortable fields). */
const sortColumns = {
  createdAt: apiKeys.createdAt,
  name: sql`lower(${apiKeys.name})`,
  isActive: apiKeys.isActive,
  expiresAt: apiKeys.expiresAt,
  lastUsedAt: apiKeys.lastUsedAt,
  updatedAt: apiKeys.updatedAt,
};

/** The company's keys that `where` holds for, newest first unless `sort` says. */
const page = (db: Db, companyId: string, where: SQL | undefined, offset: number, limit: number, sort?: ListSort) =>
  orderedPage(
    db,
    {
      select: () => selectApiKeys(db).$dynamic(),
      where: companyKeys(companyId, where),
      order: sortedOrder(sort, sortColumns, apiKeys.id, [desc(apiKeys.createdAt), desc(apiKeys.id)]),
      countFrom: apiKeys,
    },
    offset,
    limit,
  );

const userName = userNameSql<string>(users);

/** The users that `column` of the company's keys points at, as filter choices. */
async function userChoices(db: Db, companyId: string, column: typeof apiKeys.accessUserId | typeof apiKeys.createdBy): Promise<Choice[]> {
  return db
    .select({ id: users.id, name: userName })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        exists(
          db
            .select({ one: sql`1` })
            .from(apiKeys)
            .where(and(eq(apiKeys.companyId, companyId), eq(column, users.id))),
        ),
      ),
    )
    .orderBy(asc(userName));
}

/**
 * How API keys are read and deleted. Deleting a key keeps it, marked deleted and inactive, for
 * the audit's sake; a deleted key is listed only when the filter asks for deleted keys.
 */
export const apiKeyRepository: EntityRepository<ApiKeyRow> = {
  list: ({ db, auth }, { offset, limit }) => page(db, auth.companyId, eq(apiKeys.isDeleted, false), offset, limit),

  filter: ({ db, auth }, body, { offset, limit, sort }) =>
    page(db, auth.companyId, filtered(db, body as ApiKeyFilter), offset, limit, sort),

  async filterProps({ db, auth: { companyId } }) {
    const [accessUser, createduser] = await Promise.all([
      userChoices(db, companyId, apiKeys.accessUserId),
      userChoices(db, companyId, apiKeys.createdBy),
    ]);
    return {
      accessUser,
      createduser,
      isActive: labelledChoices({ true: 'Active', false: 'Inactive' }),
      isDeleted: labelledChoices({ false: 'Not deleted', true: 'Deleted' }),
    };
  },

  async cards({ db, auth }) {
    const now = new Date();
    const since = new Date(now.getTime() - RECENT_USE_DAYS * 86_400_000);
    const live = sql`not ${apiKeys.isDeleted}`;
    const expired = sql`${apiKeys.expiresAt} is not null and ${apiKeys.expiresAt} <= ${now}`;
    const [counts] = await db
      .select({
        total: counted(live),
        active: counted(sql`${live} and ${apiKeys.isActive} and not (${sql`coalesce(${expired}, false)`})`),
        inactive: counted(sql`${live} and not ${apiKeys.isActive}`),
        expired: counted(sql`${live} and ${expired}`),
        deleted: counted(sql`${apiKeys.isDeleted}`),
        recentlyUsed: counted(sql`${live} and ${apiKeys.lastUsedAt} >= ${since}`),
      })
      .from(apiKeys)
      .where(eq(apiKeys.companyId, auth.companyId));
    return {
      cards: [
        { key: 'total', label: 'API keys', value: counts.total },
        { key: 'active', label: 'Active', value: counts.active },
        { key: 'inactive', label: 'Inactive', value: counts.inactive },
        { key: 'expired', label: 'Expired', value: counts.expired },
        { key: 'deleted', label: 'Deleted', value: counts.deleted },
        { key: 'recentlyUsed', label: `Used in the last ${RECENT_USE_DAYS} days`, value: counts.recentlyUsed },
      ],
    };
  },

  one: ({ db, auth }, id) => readApiKey(db, auth.companyId, id),

  /** A deleted key stops working at once and cannot come back. */
  async remove({ db, auth }, id) {
    const [deleted] = await db
      .update(apiKeys)
      .set({ isDeleted: true, isActive: false, updatedAt: new Date() })
      .where(companyKeys(auth.companyId, and(eq(apiKeys.id, id), eq(apiKeys.isDeleted, false))))
      .returning({ id: apiKeys.id });
    if (!deleted) throw badRequest('This API key is already deleted');
  },

  audited: auditView,
};
