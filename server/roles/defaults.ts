import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { companies, rolePages, rolePolicies, roles } from '../db/schema';
import { assignPages } from '../auth/pages-catalogue';
import { recordAudit } from '../audit';

/** A role every company is given: its pages (navigation) and what its policies allow. */
export interface DefaultRole {
  name: string;
  description: string;
  pageIds: readonly string[];
  policies: readonly { resource: string; actions: string[] }[];
}

/**
 * The company's data work, read: connections and pairs, tables with their dictionaries and rules,
 * workflows and their runs, reports; and the user's own notifications (the notifications policy
 * is for reading everyone's, so it is not given).
 */
const DATA_WORK_PAGES = ['dashboard', 'notifications', 'connections', 'source-destinations', 'tables', 'workflows', 'job-runs', 'reports'];
const DATA_WORK_POLICIES = [
  { resource: 'connections', actions: ['read'] },
  { resource: 'tables', actions: ['read'] },
  { resource: 'workflows', actions: ['read'] },
  { resource: 'reports', actions: ['read'] },
];

export const MEMBER_ROLE: DefaultRole = {
  name: 'Member',
  description: "Everyday users of the console: they read the company's connections, tables, workflows, runs and reports",
  pageIds: DATA_WORK_PAGES,
  policies: DATA_WORK_POLICIES,
};

/** Read-only: everything a member reads, plus the company's people, workspaces, integrations and profile; changes nothing. */
export const VIEWER_ROLE: DefaultRole = {
  name: 'Viewer',
  description: 'Read-only access: sees the data work, people, workspaces and company profile, and changes nothing',
  pageIds: [...DATA_WORK_PAGES, 'users', 'roles', 'workspaces', 'marketplace', 'company'],
  policies: [
    ...DATA_WORK_POLICIES,
    { resource: 'users', actions: ['read'] },
    { resource: 'roles', actions: ['read'] },
    { resource: 'workspaces', actions: ['read'] },
    { resource: 'marketplace', actions: ['read'] },
    { resource: 'company', actions: ['read'] },
  ],
};

/** What the Member role was given before it read the data work: a Member role still exactly so was never edited. */
const FORMER_MEMBER_PAGES = ['dashboard', 'notifications'];

/** Writes a default role's pages and policies onto a role of the company. */
async function grant(db: Db, companyId: string, roleId: string, role: DefaultRole): Promise<void> {
  await db
    .insert(rolePolicies)
    .values(role.policies.map((p) => ({ companyId, roleId, resource: p.resource, actions: [...p.actions] })))
    .onConflictDoNothing();
  await assignPages(db, companyId, roleId, [...role.pageIds]);
}

/** Creates a default role in a company (a system role) with its grants; returns its id. */
export async function createDefaultRole(db: Db, companyId: string, role: DefaultRole): Promise<string> {
  const [row] = await db
    .insert(roles)
    .values({ companyId, name: role.name, description: role.description, type: 'system' })
    .returning({ id: roles.id });
  await grant(db, companyId, row.id, role);
  return row.id;
}

/**
 * Brings the companies made before these defaults up to them, once and idempotently: a company
 * without a role named Viewer gets one; a Member system role still as it was first made (the
 * dashboard and notifications, no policy) is given the member's reading. A role its company
 * edited, or a name it already uses, is left as it is. Returns how many roles were written.
 */
export async function upgradeDefaultRoles(db: Db): Promise<number> {
  let written = 0;
  const all = await db.select({ id: companies.id }).from(companies);
  for (const { id: companyId } of all) {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      const [viewer] = await t
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.companyId, companyId), sql`lower(${roles.name}) = ${VIEWER_ROLE.name.toLowerCase()}`));
      if (!viewer) {
        const roleId = await createDefaultRole(t, companyId, VIEWER_ROLE);
        await recordAudit(t, null, {
          companyId,
          model: 'role',
          operation: 'create',
          recordId: roleId,
          changes: { after: { name: VIEWER_ROLE.name, type: 'system', pageIds: VIEWER_ROLE.pageIds, policies: VIEWER_ROLE.policies } },
        });
        written += 1;
      }
      const [member] = await t
        .select({ id: roles.id })
        .from(roles)
        .where(and(eq(roles.companyId, companyId), eq(roles.type, 'system'), eq(roles.isAdmin, false), eq(roles.name, MEMBER_ROLE.name)));
      if (member && (await isFormerMemberRole(t, companyId, member.id))) {
        await grant(t, companyId, member.id, MEMBER_ROLE);
        await t
          .update(roles)
          .set({ description: MEMBER_ROLE.description, updatedAt: new Date() })
          .where(and(eq(roles.companyId, companyId), eq(roles.id, member.id)));
        await recordAudit(t, null, {
          companyId,
          model: 'role',
          operation: 'update',
          recordId: member.id,
          changes: {
            before: { pageIds: FORMER_MEMBER_PAGES, policies: [] },
            after: { pageIds: MEMBER_ROLE.pageIds, policies: MEMBER_ROLE.policies },
          },
        });
        written += 1;
      }
    });
  }
  return written;
}

async function isFormerMemberRole(db: Db, companyId: string, roleId: string): Promise<boolean> {
  const [policies, pages] = await Promise.all([
    db
      .select({ resource: rolePolicies.resource })
      .from(rolePolicies)
      .where(and(eq(rolePolicies.companyId, companyId), eq(rolePolicies.roleId, roleId))),
    db
      .select({ pageId: rolePages.pageId })
      .from(rolePages)
      .where(and(eq(rolePages.companyId, companyId), eq(rolePages.roleId, roleId))),
  ]);
  const pageIds = pages.map((p) => p.pageId).sort();
  return policies.length === 0 && pageIds.join() === [...FORMER_MEMBER_PAGES].sort().join();
}
