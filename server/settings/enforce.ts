import { passwordProblem } from '../../common/password-policy';
import { emailDomainOf, isEmailDomainAllowed } from '../../common/settings';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';
import { allowedEmailDomainsOf, passwordPolicyOf } from './store';

/**
 * The company's service settings, applied where they matter: one call at each place a password
 * is set or a user's address is chosen. Each throws the 400 the caller answers with.
 */

/** Refuses a new password that breaks the company's rules, naming everything it lacks. */
export async function assertPasswordAllowed(db: Db, companyId: string, password: string, field = 'newPassword'): Promise<void> {
  const problem = passwordProblem(password, await passwordPolicyOf(db, companyId));
  if (problem) throw badRequest(`${field}: ${problem}`);
}

/** Refuses an address outside the company's allowed email domains (when it lists any). */
export async function assertEmailDomainAllowed(db: Db, companyId: string, email: string, field = 'email'): Promise<void> {
  const allowed = await allowedEmailDomainsOf(db, companyId);
  if (isEmailDomainAllowed(email, allowed)) return;
  throw badRequest(`${field}: ${emailDomainOf(email)} is not one of the company's allowed domains (${allowed.join(', ')})`);
}

/** A user about to be created (an invitation, a demo account): the address, and the password when one is given. */
export async function assertNewUserAllowed(db: Db, companyId: string, user: { email: string; password?: string }): Promise<void> {
  await assertEmailDomainAllowed(db, companyId, user.email);
  if (user.password !== undefined) await assertPasswordAllowed(db, companyId, user.password, 'password');
}
