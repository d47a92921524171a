import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { CONNECTION_TYPE_CATALOGUE, CONNECTION_TYPES } from '../../../common/connections';
import type { Secrets } from '../../auth/secrets';
import { companyConnections, findConnection, selectConnections, toConnectionRow, type ConnectionRow } from '../../connections/records';
import type { Db } from '../../db/client';
import { connections, sourceDestinations } from '../../db/schema';
import {
  anyOf,
  booleanFilter,
  booleanIs,
  counted,
  filterBody,
  labelledChoices,
  orderedPage,
  searching,
  textChoiceFilter,
} from '../../http/lists';
import type { EntityRepository, EntityScope, PageRequest } from '../../platform/entity-routes';
import type { ListSort } from '../../../common/contract/routes';
import { sortedOrder } from '../../platform/list-sort';
import { ownedChoices, ownedConditions, ownedFilterFields } from '../../platform/owned-records';

const CONNECTION_STATUSES = ['active', 'inactive', 'failing', 'untested'] as const;
type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

const oneOf = (allowed: readonly string[]) =>
  textChoiceFilter.refine((values) => values.every((v) => allowed.includes(v)), { message: `must be one of ${allowed.join(', ')}` });

export const connectionFilterBody = filterBody({
  source: booleanFilter,
  destination: booleanFilter,
  ...ownedFilterFields,
  type: oneOf(CONNECTION_TYPES),
  status: oneOf(CONNECTION_STATUSES),
});
type ConnectionFilter = Partial<z.output<typeof connectionFilterBody>>;

const STATUS_CONDITIONS: Record<ConnectionStatus, SQL> = {
  active: sql`${connections.isActive}`,
  inactive: sql`not ${connections.isActive}`,
  failing: sql`${connections.lastTestOk} = false`,
  untested: sql`${connections.lastTestedAt} is null`,
};

/** Name, description, type and the plain settings (host, bucket, path…) hold the text. */
export const searchedText = (text: string) =>
  searching([connections.name, connections.description, connections.type, sql`${connections.settings}::text`], text);

function filterConditions(filter: ConnectionFilter): SQL | undefined {
  const statuses = (filter.status ?? []) as ConnectionStatus[];
  return and(
    booleanIs(connections.isSource, filter.source ?? []),
    booleanIs(connections.isDestination, filter.destination ?? []),
    ownedConditions(connections, filter),
    anyOf(connections.type, filter.type ?? []),
    statuses.length > 0 ? or(...statuses.map((status) => STATUS_CONDITIONS[status])) : undefined,
    searchedText(filter.search ?? ''),
  );
}

/** The columns the connection lists sort by (the contract's sortable fields). */
const sortColumns = {
  createdAt: connections.createdAt,
  name: sql`lower(${connections.name})`,
  isSource: connections.isSource,
  isDestination: connections.isDestination,
  isActive: connections.isActive,
  lastTestedAt: connections.lastTestedAt,
};

/** One page of the company's connections that `where` holds for, newest first unless `sort` says; secrets only as the keys set. */
export async function connectionPage(
  db: Db,
  secrets: Secrets,
  companyId: string,
  where: SQL | undefined,
  offset: number,
  limit: number,
  sort?: ListSort,
) {
  const page = await orderedPage(
    db,
    {
      select: () => selectConnections(db),
      where: companyConnections(companyId, where),
      order: sortedOrder(sort, sortColumns, connections.id, [desc(connections.createdAt), desc(connections.id)]),
      countFrom: connections,
    },
    offset,
    limit,
  );
  return { ...page, rows: page.rows.map((row) => toConnectionRow(secrets, row)) };
}

const secretsOf = (scope: EntityScope) => scope.request.server.ctx.secrets;
const listed = (scope: EntityScope, where: SQL | undefined, page: PageRequest) =>
  connectionPage(scope.db, secretsOf(scope), scope.auth.companyId, where, page.offset, page.limit, page.sort);

/**
 * How connections are read by the standard calls. Their changes check and seal settings and
 * reach out to what they name, so they are the module's own.
 */
export const connectionRepository: EntityRepository<ConnectionRow> = {
  list: (scope, page) => listed(scope, undefined, page),
  search: (scope, text, page) => listed(scope, searchedText(text), page),
  filter: (scope, body, page) => listed(scope, filterConditions(body as ConnectionFilter), page),

  // A missing connection is findConnection's 404, worded as every other call on a connection words it.
  one: (scope, id) => findConnection(scope.db, secretsOf(scope), scope.auth.companyId, id),

  async filterProps({ db, auth }) {
    const [owned, typesUsed] = await Promise.all([
      ownedChoices(db, auth.companyId, connections),
      db.selectDistinct({ type: connections.type }).from(connections).where(eq(connections.companyId, auth.companyId)),
    ]);
    const used = new Set(typesUsed.map((t) => t.type));
    return {
      source: labelledChoices({ true: 'Sources', false: 'Not sources' }),
      destination: labelledChoices({ true: 'Destinations', false: 'Not destinations' }),
      ...owned,
      type: CONNECTION_TYPE_CATALOGUE.filter((t) => used.has(t.type)).map((t) => ({ id: t.type, name: t.label })),
      status: labelledChoices({ active: 'Active', inactive: 'Inactive', failing: 'Last test failed', untested: 'Never tested' }),
    };
  },

  async cards({ db, auth }) {
    const [[counts], [pairs]] = await Promise.all([
      db
        .select({
          total: counted(),
          active: counted(sql`${connections.isActive}`),
          sources: counted(sql`${connections.isSource}`),
          destinations: counted(sql`${connections.isDestination}`),
          failing: counted(sql`${connections.lastTestOk} = false`),
        })
        .from(connections)
        .where(eq(connections.companyId, auth.companyId)),
      db.select({ total: counted() }).from(sourceDestinations).where(eq(sourceDestinations.companyId, auth.companyId)),
    ]);
    return {
      cards: [
        { key: 'total', label: 'Connections', value: counts.total },
        { key: 'active', label: 'Active', value: counts.active },
        { key: 'sources', label: 'Sources', value: counts.sources },
        { key: 'destinations', label: 'Destinations', value: counts.destinations },
        { key: 'failing', label: 'Last test failed', value: counts.failing },
        { key: 'pairs', label: 'Source/destination pairs', value: pairs.total, link: '/source-destinations' },
      ],
    };
  },
};
