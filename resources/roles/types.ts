import type { PolicyEntry } from '../../common/schemas/roles';

export type { PolicyEntry };

/** A role as the lists answer it, and with what it holds (`GET /role/{id}`): the contract's. */
export type { Role, RoleDetail } from '../../common/contract/roles';
import type { Role } from '../../common/contract/roles';

/** One resource of the policy catalogue (`GET /authorization/policies`). */
export interface PolicyResource {
  resource: string;
  label: string;
  actions: string[];
}

export interface PolicyCatalogue {
  resources: PolicyResource[];
  actions: string[];
}

/** A console page a role can be given (`GET /roles/policies/pages`). */
export interface PageEntry {
  id: string;
  title: string;
  url: string;
  group: string;
  groupTitle?: string;
  icon?: string;
  adminOnly: boolean;
}

/** `GET /roles/policy/{id}`: the role, its policies and its pages. */
export interface RolePolicy {
  role: Role;
  policies: PolicyEntry[];
  pages: PageEntry[];
}
