import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { CreateRoleBody, PolicyEntry, UpdateRoleBody } from '../../common/schemas/roles';
import { recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import { assignPages, pageAssignmentProblem, unassignPages } from '../auth/pages-catalogue';
import { normalisePolicies, policyProblems, rolePolicyList, type Policy } from '../auth/policies';
import type { Db } from '../db/client';
import { rolePages, rolePolicies, roles, users } from '../db/schema';
import { badRequest, conflict } from '../http/errors';
import { isUniqueViolation } from '../http/database-errors';
import { notify } from '../notify';
import { activeHolderIds, findRole, pageIdsOfRole, roleDetail, type RoleDetail, type RoleRow } from './records';

/** Pages a new role gets when the request names none: somewhere to land after sign-in. */
export const DEFAULT_NEW_ROLE_PAGES = ['dashboard'];

export const nameTakenMessage = (name: string) => `A role named "${name}" already exists`;

export function holdersMessage(n: number): string {
  return `${n === 1 ? '1 user has' : `${n} users have`} this role; give them another role first`;
}

/** Checked before writing for a clear answer; the unique index roles_company_name_key still decides races. */
async function refuseTakenName(db: Db, companyId: string, name: string, exceptRoleId?: string): Promise<void> {
  const [taken] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.companyId, companyId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptRoleId ? ne(roles.id, exceptRoleId) : undefined,
      ),
    );
  if (taken) throw conflict(nameTakenMessage(name));
}

async function writeUniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(nameTakenMessage(name));
    throw err;
  }
}

/** Known resources and actions only (400 naming the entry otherwise), normalised. */
export function validPolicies(posted: readonly PolicyEntry[]): Policy[] {
  const problems = policyProblems(posted);
  if (problems.length > 0) throw badRequest(problems.slice(0, 5).join('; '));
  return normalisePolicies(posted as Policy[]);
}

/** A role holds only the actions it allows; an entry with none is the same as no entry. */
const grantingOnly = (policies: Policy[]) => policies.filter((p) => p.actions.length > 0);

const samePolicies = (a: Policy[], b: Policy[]) => JSON.stringify(grantingOnly(a)) === JSON.stringify(grantingOnly(b));

/** Users no longer "hold" a role only once none of them points at it: the row conditions make that part of the write. */
const unheld = (companyId: string, roleId: string) =>
  sql`not exists (select 1 from ${users} where ${users.companyId} = ${companyId} and ${users.roleId} = ${roleId})`;

async function holderCount(db: Db, companyId: string, roleId: string): Promise<number> {
  return (await findRole(db, companyId, roleId)).userCount;
}

/** A system role keeps its name, stays active and is never deleted (each refusal a whole sentence, worded in the console). */
function refuseSystemRole(role: RoleRow, change: 'rename' | 'deactivate' | 'delete'): void {
  if (role.type !== 'system') return;
  if (change === 'rename') throw badRequest(`name: ${role.name} is a system role and cannot be renamed`);
  if (change === 'deactivate') throw badRequest(`isActive: ${role.name} is a system role and cannot be deactivated`);
  throw badRequest(`id: ${role.name} is a system role and cannot be deleted`);
}

async function tellHolders(db: Db, auth: AuthContext, role: RoleRow, message: string): Promise<void> {
  // The one who made the change knows of it already.
  const to = (await activeHolderIds(db, auth.companyId, role.id)).filter((id) => id !== auth.userId);
  await notify(db, {
    companyId: auth.companyId,
    to,
    type: 'role_changed',
    title: 'Your role has changed',
    message,
    link: '/',
    createdBy: auth.userId,
  });
}

/** After a change to what a role holds: its time of change, the audit entry, and a word to its holders. */
async function roleChanged(
  tx: Db,
  request: FastifyRequest,
  auth: AuthContext,
  role: RoleRow,
  audit: { model: string; operation: string; changes: Record<string, unknown> },
  message: string,
): Promise<void> {
  await tx
    .update(roles)
    .set({ updatedAt: new Date() })
    .where(and(eq(roles.companyId, auth.companyId), eq(roles.id, role.id)));
  await recordAudit(tx, request, { companyId: auth.companyId, recordId: role.id, ...audit });
  await tellHolders(tx, auth, role, message);
}

export async function createRole(db: Db, request: FastifyRequest, auth: AuthContext, body: CreateRoleBody): Promise<RoleDetail> {
  const policies = grantingOnly(validPolicies(body.policies ?? []));
  const pageIds = [...new Set(body.pageIds ?? DEFAULT_NEW_ROLE_PAGES)];
  const pageProblem = pageAssignmentProblem(pageIds, false);
  if (pageProblem) throw badRequest(pageProblem);
  await refuseTakenName(db, auth.companyId, body.name);
  const roleId = await writeUniqueName(body.name, () =>
    db.transaction(async (tx) => {
      const [role] = await tx
        .insert(roles)
        .values({
          companyId: auth.companyId,
          name: body.name,
          description: body.description,
          type: 'custom',
          isAdmin: false,
          createdBy: auth.userId,
        })
        .returning({ id: roles.id });
      if (policies.length > 0) {
        await tx.insert(rolePolicies).values(policies.map((p) => ({ companyId: auth.companyId, roleId: role.id, ...p })));
      }
      await assignPages(tx, auth.companyId, role.id, pageIds);
      await recordAudit(tx, request, {
        companyId: auth.companyId,
        model: 'role',
        operation: 'create',
        recordId: role.id,
        changes: {
          after: {
            name: body.name,
            description: body.description,
            type: 'custom',
            isActive: true,
            policies,
            pageIds: await pageIdsOfRole(tx, auth.companyId, role.id),
          },
        },
      });
      return role.id;
    }),
  );
  return roleDetail(db, auth.companyId, roleId);
}

export async function updateRole(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  roleId: string,
  body: UpdateRoleBody,
): Promise<RoleDetail> {
  const role = await findRole(db, auth.companyId, roleId);
  const before: Record<string, string> = {};
  const after: Record<string, string> = {};
  if (body.name !== undefined && body.name !== role.name) {
    refuseSystemRole(role, 'rename');
    await refuseTakenName(db, auth.companyId, body.name, role.id);
    before.name = role.name;
    after.name = body.name;
  }
  if (body.description !== undefined && body.description !== role.description) {
    before.description = role.description;
    after.description = body.description;
  }
  if (Object.keys(after).length > 0) {
    await writeUniqueName(body.name ?? role.name, () =>
      db.transaction(async (tx) => {
        await tx
          .update(roles)
          .set({ ...after, updatedAt: new Date() })
          .where(and(eq(roles.companyId, auth.companyId), eq(roles.id, role.id)));
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'role',
          operation: 'update',
          recordId: role.id,
          changes: { before, after },
        });
      }),
    );
  }
  return roleDetail(db, auth.companyId, role.id);
}

export async function setRoleActive(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  roleId: string,
  isActive: boolean,
): Promise<RoleDetail> {
  const role = await findRole(db, auth.companyId, roleId);
  if (role.isActive !== isActive) {
    if (!isActive) {
      refuseSystemRole(role, 'deactivate');
      if (role.userCount > 0) throw badRequest(holdersMessage(role.userCount));
    }
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(roles)
        .set({ isActive, updatedAt: new Date() })
        .where(and(eq(roles.companyId, auth.companyId), eq(roles.id, role.id), isActive ? undefined : unheld(auth.companyId, role.id)))
        .returning({ id: roles.id });
      // Someone was given the role since it was read.
      if (changed.length === 0) throw badRequest(holdersMessage(await holderCount(tx, auth.companyId, role.id)));
      await recordAudit(tx, request, {
        companyId: auth.companyId,
        model: 'role',
        operation: isActive ? 'activate' : 'deactivate',
        recordId: role.id,
        changes: { before: { isActive: role.isActive }, after: { isActive } },
      });
    });
  }
  return roleDetail(db, auth.companyId, role.id);
}

export async function deleteRole(db: Db, request: FastifyRequest, auth: AuthContext, roleId: string): Promise<RoleDetail> {
  const role = await roleDetail(db, auth.companyId, roleId);
  refuseSystemRole(role, 'delete');
  if (role.userCount > 0) throw badRequest(holdersMessage(role.userCount));
  await db.transaction(async (tx) => {
    const deleted = await tx
      .delete(roles)
      .where(and(eq(roles.companyId, auth.companyId), eq(roles.id, role.id), unheld(auth.companyId, role.id)))
      .returning({ id: roles.id });
    if (deleted.length === 0) throw badRequest(holdersMessage(await holderCount(tx, auth.companyId, role.id)));
    await tx.delete(rolePolicies).where(and(eq(rolePolicies.companyId, auth.companyId), eq(rolePolicies.roleId, role.id)));
    await tx.delete(rolePages).where(and(eq(rolePages.companyId, auth.companyId), eq(rolePages.roleId, role.id)));
    await recordAudit(tx, request, {
      companyId: auth.companyId,
      model: 'role',
      operation: 'delete',
      recordId: role.id,
      changes: {
        before: {
          name: role.name,
          description: role.description,
          type: role.type,
          isActive: role.isActive,
          policies: role.policies,
          pageIds: role.pageIds,
        },
      },
    });
  });
  return role;
}

/** Replaces what a role allows, in one transaction. */
export async function replaceRolePolicies(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  roleId: string,
  posted: readonly PolicyEntry[],
): Promise<{ role: RoleRow; policies: Policy[] }> {
  const role = await findRole(db, auth.companyId, roleId);
  if (role.isAdmin) throw badRequest(`policies: ${role.name} is an admin role; it holds every policy and they cannot be changed`);
  const policies = grantingOnly(validPolicies(posted));
  const before = await rolePolicyList(db, auth.companyId, role.id);
  if (samePolicies(before, policies)) return { role, policies };
  await db.transaction(async (tx) => {
    await tx.delete(rolePolicies).where(and(eq(rolePolicies.companyId, auth.companyId), eq(rolePolicies.roleId, role.id)));
    if (policies.length > 0) {
      await tx.insert(rolePolicies).values(policies.map((p) => ({ companyId: auth.companyId, roleId: role.id, ...p })));
    }
    await roleChanged(
      tx,
      request,
      auth,
      role,
      { model: 'role_policies', operation: 'update', changes: { before: { policies: grantingOnly(before) }, after: { policies } } },
      `What your role "${role.name}" allows has changed. It applies from your next action.`,
    );
  });
  return { role, policies };
}

/** Gives pages to a role, or takes them away; the menu of its users changes at their next sign-in. */
export async function changeRolePages(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  roleId: string,
  operation: 'assign' | 'unassign',
  posted: readonly string[],
): Promise<{ role: RoleRow; pageIds: string[] }> {
  const role = await findRole(db, auth.companyId, roleId);
  const pageIds = [...new Set(posted)];
  // Taking an admin-only page from a role that has none of them is harmless: only unknown ids are refused then.
  const problem = pageAssignmentProblem(pageIds, operation === 'unassign' || role.isAdmin);
  if (problem) throw badRequest(problem);
  if (operation === 'unassign' && role.isAdmin && pageIds.includes('roles')) {
    throw badRequest(`pageIds: ${role.name} is an admin role and keeps the Roles and policies page, the way back to this editor`);
  }
  const before = await pageIdsOfRole(db, auth.companyId, role.id);
  const after = await db.transaction(async (tx) => {
    if (operation === 'assign') await assignPages(tx, auth.companyId, role.id, pageIds);
    else await unassignPages(tx, auth.companyId, role.id, pageIds);
    const now = await pageIdsOfRole(tx, auth.companyId, role.id);
    if (now.join() === before.join()) return now;
    await roleChanged(
      tx,
      request,
      auth,
      role,
      { model: 'role_pages', operation, changes: { before: { pageIds: before }, after: { pageIds: now } } },
      `The pages of your role "${role.name}" have changed. Your menu shows them from your next sign-in.`,
    );
    return now;
  });
  return { role, pageIds: after };
}
