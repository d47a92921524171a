import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { pages, rolePages, roles } from '../db/schema';
import { PAGE_GROUPS, pageCatalogue } from '../../common/contract';

export interface PageDefinition {
  id: string;
  title: string;
  url: string;
  group: string;
  icon: string;
  adminOnly?: boolean;
}

export { PAGE_GROUPS } from '../../common/contract';

/**
 * The console pages a role can be given, from the contracts (common/contract): on start the
 * catalogue is written to the database and any new page is given to every admin role.
 */
export const PAGE_CATALOGUE: PageDefinition[] = pageCatalogue().map(({ order: _order, ...page }) => page);

export async function syncPageCatalogue(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    const existing = new Set((await tx.select({ id: pages.id }).from(pages)).map((p) => p.id));
    for (const [index, page] of PAGE_CATALOGUE.entries()) {
      const values = {
        title: page.title,
        url: page.url,
        groupKey: page.group,
        icon: page.icon,
        sortOrder: (PAGE_GROUPS[page.group]?.order ?? 50) * 100 + index,
        adminOnly: page.adminOnly ?? false,
      };
      await tx
        .insert(pages)
        .values({ id: page.id, ...values })
        .onConflictDoUpdate({ target: pages.id, set: values });
    }
    const ids = PAGE_CATALOGUE.map((p) => p.id);
    await tx.delete(rolePages).where(notInArray(rolePages.pageId, ids));
    await tx.delete(pages).where(notInArray(pages.id, ids));
    const added = ids.filter((id) => !existing.has(id));
    if (added.length > 0) {
      // New pages go to every admin role of every company.
      await tx.execute(sql`
        insert into role_pages (company_id, role_id, page_id)
        select r.company_id, r.id, p.id from roles r cross join pages p
        where r.is_admin and p.id in ${added}
        on conflict do nothing`);
    }
  });
}

/** Gives a role the pages named (all of them when `pageIds` is 'all'), skipping admin-only pages for non-admin roles. */
export async function assignPages(db: Db, companyId: string, roleId: string, pageIds: string[] | 'all'): Promise<void> {
  const [role] = await db
    .select({ isAdmin: roles.isAdmin })
    .from(roles)
    .where(and(eq(roles.companyId, companyId), eq(roles.id, roleId)));
  if (!role) return;
  const candidates = pageIds === 'all' ? PAGE_CATALOGUE : PAGE_CATALOGUE.filter((p) => pageIds.includes(p.id));
  const allowed = candidates.filter((p) => role.isAdmin || !p.adminOnly);
  if (allowed.length === 0) return;
  await db
    .insert(rolePages)
    .values(allowed.map((p) => ({ companyId, roleId, pageId: p.id })))
    .onConflictDoNothing();
}

/** Takes the pages named away from a role; ids it does not have are ignored. */
export async function unassignPages(db: Db, companyId: string, roleId: string, pageIds: string[]): Promise<void> {
  if (pageIds.length === 0) return;
  await db
    .delete(rolePages)
    .where(and(eq(rolePages.companyId, companyId), eq(rolePages.roleId, roleId), inArray(rolePages.pageId, pageIds)));
}

/** The catalogue entries of these ids, in catalogue order (unknown ids are left out). */
export function cataloguePages(pageIds: Iterable<string>): PageDefinition[] {
  const wanted = new Set(pageIds);
  return PAGE_CATALOGUE.filter((p) => wanted.has(p.id));
}

const listed = (values: string[]) =>
  values.length <= 5 ? values.join(', ') : `${values.slice(0, 5).join(', ')} and ${values.length - 5} more`;

/**
 * Why these pages cannot be given to a role, naming them: ids the catalogue does not hold, or
 * admin-only pages for a role that is not an admin role. Null when they can.
 */
export function pageAssignmentProblem(pageIds: readonly string[], roleIsAdmin: boolean): string | null {
  const unknown = [...new Set(pageIds.filter((id) => !PAGE_CATALOGUE.some((p) => p.id === id)))];
  if (unknown.length > 0) {
    return `pageIds: ${listed(unknown.map((id) => JSON.stringify(id)))} ${unknown.length === 1 ? 'is not a page' : 'are not pages'} of the console`;
  }
  const adminOnly = cataloguePages(pageIds).filter((p) => p.adminOnly);
  if (!roleIsAdmin && adminOnly.length > 0) {
    return `pageIds: ${listed(adminOnly.map((p) => `${p.title} (${p.id})`))} ${adminOnly.length === 1 ? 'is' : 'are'} for admin roles only`;
  }
  return null;
}

export interface NavChild {
  id: string;
  title: string;
  url: string;
  icon: string;
}
export interface NavGroup {
  id: string;
  title: string;
  type: 'group';
  icon: string;
  children: NavChild[];
}
export interface NavItems {
  userNavItemJson: { items: NavGroup[] };
}

/** The navigation of a role: its pages, grouped, in catalogue order (spec: navItems.userNavItemJson.items[].children[].url). */
export async function buildNavItems(db: Db, companyId: string, roleId: string): Promise<NavItems> {
  const rows = await db
    .select({ id: pages.id, title: pages.title, url: pages.url, icon: pages.icon, group: pages.groupKey })
    .from(rolePages)
    .innerJoin(pages, eq(pages.id, rolePages.pageId))
    .where(and(eq(rolePages.companyId, companyId), eq(rolePages.roleId, roleId)))
    .orderBy(asc(pages.sortOrder));
  const groups = new Map<string, NavGroup>();
  for (const row of rows) {
    let group = groups.get(row.group);
    if (!group) {
      const meta = PAGE_GROUPS[row.group] ?? { title: row.group, icon: 'folder' };
      group = { id: row.group, title: meta.title, type: 'group', icon: meta.icon, children: [] };
      groups.set(row.group, group);
    }
    group.children.push({ id: row.id, title: row.title, url: row.url, icon: row.icon });
  }
  return { userNavItemJson: { items: [...groups.values()] } };
}

/** Page ids a role has, for checks such as "may this role open the outbox". */
export async function rolePageIds(db: Db, companyId: string, roleId: string): Promise<string[]> {
  const rows = await db
    .select({ pageId: rolePages.pageId })
    .from(rolePages)
    .where(and(eq(rolePages.companyId, companyId), eq(rolePages.roleId, roleId)));
  return rows.map((r) => r.pageId);
}
