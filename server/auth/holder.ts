import { companies, roles, users } from '../db/schema';

/**
 * What a session's or an API key's holder must still be to act, read in the same query as the
 * session or key (joined through users, roles and companies).
 */
export const holderColumns = {
  email: users.email,
  roleId: users.roleId,
  userActive: users.isActive,
  userStatus: users.status,
  isAdmin: roles.isAdmin,
  companyActive: companies.isActive,
};

/** The holder may act: an active user (not invited, not locked) of an active company. */
export function holderMayAct(row: { userActive: boolean; userStatus: string; companyActive: boolean }): boolean {
  return row.userActive && row.userStatus === 'active' && row.companyActive;
}
