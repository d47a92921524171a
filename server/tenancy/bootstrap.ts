import { count } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies } from '../db/schema';
import { generatePassword } from '../auth/passwords';
import { passwordProblem } from '../../common/password-policy';
import { hostnameProblem } from '../../common/hostname';
import { provisionCompany } from './provision';

export interface BootstrapResult {
  companyId: string;
  adminUserId: string;
  hostname: string;
  email: string;
  /** Present only when it was generated (printed once, never stored in clear). */
  generatedPassword?: string;
}

/** On an empty database, creates the first company and its admin from BOOTSTRAP_* settings. */
export async function bootstrapFirstCompany(db: Db, config: Config): Promise<BootstrapResult | null> {
  const [{ n }] = await db.select({ n: count() }).from(companies);
  if (n > 0) return null;
  const { companyHostname, companyName, adminEmail, adminPassword } = config.bootstrap;
  const hostProblem = hostnameProblem(companyHostname);
  if (hostProblem) throw new Error(`BOOTSTRAP_COMPANY_HOSTNAME: ${hostProblem}`);
  if (adminPassword) {
    const problem = passwordProblem(adminPassword);
    if (problem) throw new Error(`BOOTSTRAP_ADMIN_PASSWORD: ${problem}`);
  }
  const password = adminPassword ?? generatePassword();
  const company = await provisionCompany(db, {
    name: companyName,
    hostname: companyHostname,
    admin: { email: adminEmail, password, firstName: 'Admin', lastName: '' },
  });
  return {
    companyId: company.companyId,
    adminUserId: company.adminUserId,
    hostname: companyHostname,
    email: adminEmail,
    generatedPassword: adminPassword ? undefined : password,
  };
}
