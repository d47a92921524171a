import type { PolicyEntry } from '../../common/schemas/roles';

export type { PolicyEntry };

/** A role as the lists answer it (`GET /roles/{offset}/{limit}`). */
export interface Role {
  id: string;
  name: string;
  description: string;
  type: 'system' | 'custom';
  isAdmin: boolean;
  isActive: boolean;
  userCount: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  createdByName: string | null;
}

/** `GET /role/{id}`: a row with what the role holds. */
export interface RoleDetail extends Role {
  policies: PolicyEntry[];
  pageIds: string[];
}

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
