import { rolesContract } from '../../common/contract/roles';
import { routeSpec } from '../../common/contract/routes';
import { usersContract } from '../../common/contract/users';
import { callAction, fillPath } from '../../providers/dataProvider';
import { apiRequest } from '../../providers/http';
import type { PageEntry, PolicyCatalogue, PolicyEntry, RolePolicy } from './types';

/**
 * The roles area's calls beyond the declared CRUD routes: the contract's actions
 * (common/contract/roles.ts), and the two lists it reads from other areas. The server's message
 * of each change is what the console shows as the alert.
 */

const { actions } = rolesContract;

interface Answer<T> {
  message?: string;
  data: T;
}

/** Query keys under `roles` go stale with the role list (react-admin's refresh and a save invalidate them). */
export const rolePolicyKey = (roleId: string | number) => ['roles', 'policy', String(roleId)];
export const policyCatalogueKey = ['roles-catalogue', 'policies'];
export const pageCatalogueKey = ['roles-catalogue', 'pages'];
export const roleHoldersKey = (roleId: string | number) => ['roles', 'holders', String(roleId)];

/** The resources and actions a policy can speak of. */
export async function getPolicyCatalogue(signal?: AbortSignal): Promise<PolicyCatalogue> {
  return (await callAction(actions.policyCatalogue, { signal })).data;
}

/** Every console page a role can be given, in menu order. */
export async function getPageCatalogue(signal?: AbortSignal): Promise<PageEntry[]> {
  return (await callAction(actions.pageCatalogue, { signal })).data;
}

/** The role with its policies and pages. */
export async function getRolePolicy(roleId: string | number, signal?: AbortSignal): Promise<RolePolicy> {
  return (await callAction(actions.withPolicies, { values: { id: roleId }, signal })).data;
}

/** Replaces the role's policies with these. */
export async function assignPolicies(roleId: string | number, policies: PolicyEntry[]): Promise<string | undefined> {
  return (await callAction(actions.assignPolicies, { values: { id: roleId }, body: { policies } })).message;
}

/** Gives the role these pages, or takes them away. */
export async function changePages(
  roleId: string | number,
  operation: 'assign' | 'unassign',
  pageIds: string[],
): Promise<string | undefined> {
  const action = operation === 'assign' ? actions.addPages : actions.removePages;
  return (await callAction(action, { values: { id: roleId }, body: { pageIds } })).message;
}

export interface RoleHolder {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  status?: string;
}

export const HOLDERS_SHOWN = 10;

/** The first users holding the role, newest first: the users contract's filter route. */
export async function getRoleHolders(roleId: string | number, signal?: AbortSignal): Promise<RoleHolder[]> {
  const filter = routeSpec(usersContract.routes.filter, 'filter');
  const path = fillPath(filter.path, { offset: 0, limit: HOLDERS_SHOWN, order: 'DESC', field: 'createdAt' });
  const answer = await apiRequest<Answer<{ rows: RoleHolder[] }>>(path, { method: filter.method, body: { role: String(roleId) }, signal });
  return answer.data.rows;
}

/** The users list filtered on the role, as react-admin reads a list's filter from the URL. */
export function usersOfRoleUrl(roleId: string | number): string {
  return `/users?filter=${encodeURIComponent(JSON.stringify({ role: String(roleId) }))}`;
}
