import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { PolicyEntry } from '../../common/schemas/roles';
import { recordAudit } from '../audit';
import type { AuthContext } from '../auth/guard';
import { allPolicies, mergePolicies, rolePolicyList, userPolicyList, type Policy } from '../auth/policies';
import type { Db } from '../db/client';
import { roles, userPolicies, users } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { notify } from '../notify';
import { validPolicies } from './changes';

export interface UserPolicies {
  userId: string;
  roleId: string;
  roleName: string;
  isAdmin: boolean;
  /** What the user's role allows. */
  role: Policy[];
  /** The user's own policies, each replacing the role's for its resource (an entry with no action takes the resource away). */
  user: Policy[];
  /** What the user may do. */
  effective: Policy[];
}

async function findUser(db: Db, companyId: string, userId: string) {
  const [row] = await db
    .select({ id: users.id, email: users.email, roleId: users.roleId, roleName: roles.name, isAdmin: roles.isAdmin })
    .from(users)
    .innerJoin(roles, and(eq(roles.companyId, users.companyId), eq(roles.id, users.roleId)))
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)));
  if (!row) throw notFound('User');
  return row;
}

export async function policiesOfUser(db: Db, companyId: string, userId: string): Promise<UserPolicies> {
  const user = await findUser(db, companyId, userId);
  const [role, own] = await Promise.all([
    user.isAdmin ? allPolicies() : rolePolicyList(db, companyId, user.roleId),
    userPolicyList(db, companyId, user.id),
  ]);
  return {
    userId: user.id,
    roleId: user.roleId,
    roleName: user.roleName,
    isAdmin: user.isAdmin,
    role: role.filter((p) => p.actions.length > 0),
    user: own,
    effective: user.isAdmin ? allPolicies() : mergePolicies(role, own),
  };
}

/** Replaces a user's own policies (an empty list removes them: the role's apply again). */
export async function replaceUserPolicies(
  db: Db,
  request: FastifyRequest,
  auth: AuthContext,
  userId: string,
  posted: readonly PolicyEntry[],
): Promise<UserPolicies> {
  const target = await findUser(db, auth.companyId, userId);
  if (target.id === auth.userId) throw badRequest('userId: you cannot change your own policies; ask another administrator');
  if (target.isAdmin) {
    throw badRequest(
      `userId: ${target.email} has an admin role, which holds every policy; give them another role to limit what they may do`,
    );
  }
  // Unlike a role's, a user's entry with no action is kept: it takes the resource away from them.
  const policies = validPolicies(posted);
  const before = await userPolicyList(db, auth.companyId, target.id);
  if (JSON.stringify(before) !== JSON.stringify(policies)) {
    await db.transaction(async (tx) => {
      await tx.delete(userPolicies).where(and(eq(userPolicies.companyId, auth.companyId), eq(userPolicies.userId, target.id)));
      if (policies.length > 0) {
        await tx.insert(userPolicies).values(policies.map((p) => ({ companyId: auth.companyId, userId: target.id, ...p })));
      }
      await recordAudit(tx, request, {
        companyId: auth.companyId,
        model: 'user_policies',
        operation: 'update',
        recordId: target.id,
        changes: { before: { policies: before }, after: { policies } },
      });
      await notify(tx, {
        companyId: auth.companyId,
        to: [target.id],
        type: 'policies_changed',
        title: 'Your access has changed',
        message: 'An administrator changed what you may do in the console. It applies from your next action.',
        link: '/',
        createdBy: auth.userId,
      });
    });
  }
  return policiesOfUser(db, auth.companyId, target.id);
}
