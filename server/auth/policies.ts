import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { KeptAnswers } from '../db/table-watch';
import { rolePolicies, userPolicies } from '../db/schema';
import { policyCatalogue, type PolicyAction } from '../../common/contract';

export { POLICY_ACTIONS, type PolicyAction } from '../../common/contract';

export interface PolicyResource {
  resource: string;
  label: string;
  /** The actions that make sense for it (audits are read-only). */
  actions: readonly PolicyAction[];
}

/**
 * The resources policies speak of, from the contracts (common/contract). A route names its
 * resource and action in its config (`config: { policy: ['users', 'update'] }`) and the guard checks it.
 */
export const POLICY_RESOURCES: PolicyResource[] = policyCatalogue().map(({ order: _order, ...resource }) => resource);

export const POLICY_RESOURCE_NAMES = POLICY_RESOURCES.map((r) => r.resource);

export interface Policy {
  resource: string;
  actions: PolicyAction[];
}

export type PolicyConfig = readonly [resource: string, action: PolicyAction];

/** Keeps known resources and actions only, each once, in catalogue order. */
export function normalisePolicies(policies: readonly Policy[]): Policy[] {
  const wanted = new Map<string, Set<string>>();
  for (const p of policies) {
    const set = wanted.get(p.resource) ?? new Set<string>();
    p.actions.forEach((a) => set.add(a));
    wanted.set(p.resource, set);
  }
  return POLICY_RESOURCES.filter((r) => wanted.has(r.resource)).map((r) => ({
    resource: r.resource,
    actions: r.actions.filter((a) => wanted.get(r.resource)!.has(a)),
  }));
}

/** Problems with a posted policy list, named by field: unknown resources, actions the resource has not. */
export function policyProblems(policies: readonly { resource: string; actions: readonly string[] }[]): string[] {
  const problems: string[] = [];
  policies.forEach((p, i) => {
    const known = POLICY_RESOURCES.find((r) => r.resource === p.resource);
    if (!known) {
      problems.push(`policies.${i}.resource: "${p.resource}" is not a resource (one of ${POLICY_RESOURCE_NAMES.join(', ')})`);
      return;
    }
    const bad = p.actions.filter((a) => !known.actions.includes(a as PolicyAction));
    if (bad.length > 0) problems.push(`policies.${i}.actions: ${p.resource} allows only ${known.actions.join(', ')}`);
  });
  return problems;
}

export async function rolePolicyList(db: Db, companyId: string, roleId: string): Promise<Policy[]> {
  const rows = await db
    .select({ resource: rolePolicies.resource, actions: rolePolicies.actions })
    .from(rolePolicies)
    .where(and(eq(rolePolicies.companyId, companyId), eq(rolePolicies.roleId, roleId)));
  return normalisePolicies(rows as Policy[]);
}

export async function userPolicyList(db: Db, companyId: string, userId: string): Promise<Policy[]> {
  const rows = await db
    .select({ resource: userPolicies.resource, actions: userPolicies.actions })
    .from(userPolicies)
    .where(and(eq(userPolicies.companyId, companyId), eq(userPolicies.userId, userId)));
  return normalisePolicies(rows as Policy[]);
}

/** The user's own policy for a resource replaces the role's for it. */
export function mergePolicies(role: Policy[], user: Policy[]): Policy[] {
  const byResource = new Map(role.map((p) => [p.resource, p]));
  for (const p of user) byResource.set(p.resource, p);
  return normalisePolicies([...byResource.values()]).filter((p) => p.actions.length > 0);
}

export function allPolicies(): Policy[] {
  return POLICY_RESOURCES.map((r) => ({ resource: r.resource, actions: [...r.actions] }));
}

export interface PolicySubject {
  companyId: string;
  userId: string;
  roleId: string;
  isAdmin: boolean;
}

/** What the subject may do: everything for an admin role, else the role's policies with the user's own over them. */
export async function effectivePolicies(db: Db, subject: PolicySubject): Promise<Policy[]> {
  if (subject.isAdmin) return allPolicies();
  const [role, user] = await Promise.all([
    rolePolicyList(db, subject.companyId, subject.roleId),
    userPolicyList(db, subject.companyId, subject.userId),
  ]);
  return mergePolicies(role, user);
}

/** One check, as the guard makes it: the user's policy for the resource if any, else the role's. */
export async function isAllowed(db: Db, subject: PolicySubject, resource: string, action: PolicyAction): Promise<boolean> {
  if (subject.isAdmin) return true;
  const load = () => grantedActions(db, subject, resource);
  const actions = await grants.read(db, `${subject.companyId}/${subject.userId}/${subject.roleId}/${resource}`, GRANT_TABLES, load);
  return actions.includes(action);
}

/** The actions a user may take on a resource: their own policy for it if they have one, else their role's. */
async function grantedActions(db: Db, subject: PolicySubject, resource: string): Promise<string[]> {
  const [own] = await db
    .select({ actions: userPolicies.actions })
    .from(userPolicies)
    .where(
      and(eq(userPolicies.companyId, subject.companyId), eq(userPolicies.userId, subject.userId), eq(userPolicies.resource, resource)),
    );
  if (own) return own.actions;
  const [role] = await db
    .select({ actions: rolePolicies.actions })
    .from(rolePolicies)
    .where(
      and(eq(rolePolicies.companyId, subject.companyId), eq(rolePolicies.roleId, subject.roleId), eq(rolePolicies.resource, resource)),
    );
  return role?.actions ?? [];
}

/** Grants are kept between requests until a policy is written (server/db/table-watch.ts). */
const GRANT_TABLES = ['user_policies', 'role_policies'];
const grants = new KeptAnswers<string[]>({ ttlMs: 5_000, maxEntries: 20_000 });
