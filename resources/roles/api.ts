import { apiRequest } from '../../providers/http';
import type { PageEntry, PolicyCatalogue, PolicyEntry, RolePolicy } from './types';

/**
 * The roles area's calls beyond the declared CRUD routes (docs/api/roles.md). The server's
 * message of each change is what the console shows as the alert.
 */

interface Answer<T> {
  message?: string;
  data: T;
}

const id = (value: string | number) => encodeURIComponent(String(value));

/** Query keys under `roles` go stale with the role list (react-admin's refresh and a save invalidate them). */
export const rolePolicyKey = (roleId: string | number) => ['roles', 'policy', String(roleId)];
export const policyCatalogueKey = ['roles-catalogue', 'policies'];
export const pageCatalogueKey = ['roles-catalogue', 'pages'];
export const roleHoldersKey = (roleId: string | number) => ['roles', 'holders', String(roleId)];

/** The resources and actions a policy can speak of (`GET /authorization/policies`). */
export async function getPolicyCatalogue(signal?: AbortSignal): Promise<PolicyCatalogue> {
  return (await apiRequest<Answer<PolicyCatalogue>>('/authorization/policies', { signal })).data;
}

/** Every console page a role can be given, in menu order (`GET /roles/policies/pages`). */
export async function getPageCatalogue(signal?: AbortSignal): Promise<PageEntry[]> {
  return (await apiRequest<Answer<PageEntry[]>>('/roles/policies/pages', { signal })).data;
}

/** The role with its policies and pages (`GET /roles/policy/{id}`). */
export async function getRolePolicy(roleId: string | number, signal?: AbortSignal): Promise<RolePolicy> {
  return (await apiRequest<Answer<RolePolicy>>(`/roles/policy/${id(roleId)}`, { signal })).data;
}

/** Replaces the role's policies with these (`PUT /policies/assign/{id}`). */
export async function assignPolicies(roleId: string | number, policies: PolicyEntry[]): Promise<string | undefined> {
  return (await apiRequest<Answer<unknown>>(`/policies/assign/${id(roleId)}`, { method: 'PUT', body: { policies } })).message;
}

/** Gives the role these pages, or takes them away (`PUT /roles/policies/pages/assign|unassign/{id}`). */
export async function changePages(
  roleId: string | number,
  operation: 'assign' | 'unassign',
  pageIds: string[],
): Promise<string | undefined> {
  return (await apiRequest<Answer<unknown>>(`/roles/policies/pages/${operation}/${id(roleId)}`, { method: 'PUT', body: { pageIds } }))
    .message;
}

export interface RoleHolder {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  status?: string;
}

export const HOLDERS_SHOWN = 10;

/** The first users holding the role, newest first (the users filter; its path has the limit before the offset). */
export async function getRoleHolders(roleId: string | number, signal?: AbortSignal): Promise<RoleHolder[]> {
  const answer = await apiRequest<Answer<{ rows: RoleHolder[] }>>(`/users/filter/${HOLDERS_SHOWN}/0/DESC/createdAt`, {
    method: 'POST',
    body: { role: String(roleId) },
    signal,
  });
  return answer.data.rows;
}

/** The users list filtered on the role, as react-admin reads a list's filter from the URL. */
export function usersOfRoleUrl(roleId: string | number): string {
  return `/users?filter=${encodeURIComponent(JSON.stringify({ role: String(roleId) }))}`;
}
