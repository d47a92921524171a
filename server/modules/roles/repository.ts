import type { EntityRepository } from '../../platform/entity-routes';
import { listRoles, roleCards, roleFilterProps, type RoleFilter, type RoleSort } from '../../roles/list';
import { roleDetail, type RoleRow } from '../../roles/records';

/**
 * How roles are read: the caller's company's only, each row with its user count and creator's
 * name. One role comes with what it allows and its pages; another company's is "Role not found".
 */
export const roleRepository: EntityRepository<RoleRow> = {
  list: ({ db, auth }, page) => listRoles(db, auth.companyId, {}, page.sort as RoleSort, page.offset, page.limit),
  filter: ({ db, auth }, body, page) => listRoles(db, auth.companyId, body as RoleFilter, page.sort as RoleSort, page.offset, page.limit),
  search: ({ db, auth }, search, page) => listRoles(db, auth.companyId, { search }, page.sort as RoleSort, page.offset, page.limit),
  filterProps: ({ db, auth }) => roleFilterProps(db, auth.companyId),
  cards: async ({ db, auth }) => ({ cards: await roleCards(db, auth.companyId) }),
  one: ({ db, auth }, id) => roleDetail(db, auth.companyId, id),
};
