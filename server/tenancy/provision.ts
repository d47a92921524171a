import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { asFoundCompany } from '../db/tenant-scope';
import type { Db } from '../db/client';
import { companies, roles, users } from '../db/schema';
import { assignPages } from '../auth/pages-catalogue';
import { hashPassword } from '../auth/passwords';
import { conflict } from '../http/errors';
import { recordAudit } from '../audit';
import { createDefaultRole, MEMBER_ROLE, VIEWER_ROLE } from '../roles/defaults';

export interface NewCompany {
  name: string;
  hostname: string;
  admin: { email: string; password: string; firstName: string; lastName: string };
}

export interface ProvisionedCompany {
  companyId: string;
  adminUserId: string;
  adminRoleId: string;
  memberRoleId: string;
  viewerRoleId: string;
}

export const HOSTNAME_TAKEN_MESSAGE = 'That company host name is already in use; choose another one';

/**
 * Creates a company with its system roles (Admin: every page; Member: reads the data work; Viewer: reads, changes nothing) and its
 * first admin, active at once. Everything happens in one transaction: a failure leaves nothing.
 */
export async function provisionCompany(db: Db, input: NewCompany): Promise<ProvisionedCompany> {
  const passwordHash = await hashPassword(input.admin.password);
  const companyId = randomUUID();
  try {
    return await db.transaction(async (tx) => {
      const taken = await tx.select({ id: companies.id }).from(companies).where(eq(companies.hostname, input.hostname));
      if (taken.length > 0) throw conflict(HOSTNAME_TAKEN_MESSAGE);
      // The host name is free: everything else is the new company's own work, written in its scope.
      return asFoundCompany(companyId, async () => {
        const [company] = await tx.insert(companies).values({ id: companyId, name: input.name, hostname: input.hostname }).returning();
        const [adminRole] = await tx
          .insert(roles)
          .values({ companyId: company.id, name: 'Admin', description: 'Full access to the console', type: 'system', isAdmin: true })
          .returning();
        await assignPages(tx as unknown as Db, company.id, adminRole.id, 'all');
        const memberRoleId = await createDefaultRole(tx as unknown as Db, company.id, MEMBER_ROLE);
        const viewerRoleId = await createDefaultRole(tx as unknown as Db, company.id, VIEWER_ROLE);
        const [admin] = await tx
          .insert(users)
          .values({
            companyId: company.id,
            email: input.admin.email,
            firstName: input.admin.firstName,
            lastName: input.admin.lastName,
            passwordHash,
            status: 'active',
            roleId: adminRole.id,
            passwordChangedAt: new Date(),
          })
          .returning();
        await recordAudit(tx as unknown as Db, null, {
          companyId: company.id,
          userId: admin.id,
          model: 'company',
          operation: 'create',
          recordId: company.id,
          changes: { name: input.name, hostname: input.hostname, adminEmail: input.admin.email },
        });
        return { companyId: company.id, adminUserId: admin.id, adminRoleId: adminRole.id, memberRoleId, viewerRoleId };
      });
    });
  } catch (err) {
    // Two onboardings racing for one host name: the unique index decides.
    if ((err as { code?: string }).code === '23505') throw conflict(HOSTNAME_TAKEN_MESSAGE);
    throw err;
  }
}
