import { and, eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import type { EntityRepository, EntityScope, PageRequest } from '../../platform/entity-routes';
import { userCards } from '../../users/cards';
import { userFilterProps, userSelection, type UserFilter } from '../../users/filters';
import { ALL_USERS, findUserRow, listUsers, type UserRow, type UserSelection, type UserSort } from '../../users/rows';

const listed = ({ db, auth }: EntityScope, selection: UserSelection, { sort, offset, limit }: PageRequest) =>
  listUsers(db, auth.companyId, selection, sort as UserSort, offset, limit);

/**
 * How users are read: the caller's company's only, each with their role and live workspaces. One
 * the company does not have is "User not found". Their changes have rules of their own (who may
 * change whom, the last admin, invitations by mail), kept in server/users.
 */
export const userRepository: EntityRepository<UserRow> = {
  list: (scope, page) => listed(scope, ALL_USERS, page),
  filter: async (scope, body, page) => listed(scope, await userSelection(scope.db, scope.auth.companyId, body as UserFilter), page),
  filterProps: ({ db, auth }) => userFilterProps(db, auth.companyId),
  cards: async ({ db, auth }) => ({ cards: await userCards(db, auth.companyId) }),
  one: ({ db, auth }, id) => findUserRow(db, auth.companyId, id),
};

/** The caller's own row. */
export const ownRow = (auth: { companyId: string; userId: string }) => and(eq(users.companyId, auth.companyId), eq(users.id, auth.userId));
