import type { UserStatus } from '../../common/schemas/users';

/** A row of the users lists and `GET /users/{id}` (docs/api/users.md). */
export interface User {
  id: string;
  email: string;
  username: string | null;
  firstName: string;
  lastName: string;
  phone: string | null;
  status: UserStatus;
  isActive: boolean;
  roleId: string;
  roleName: string;
  isAdmin: boolean;
  workspaces: { id: string; name: string }[];
  otpEnabled: boolean;
  otpRequired: boolean;
  aiNotification: boolean;
  hasAvatar?: boolean;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
}

export function fullName(user: Pick<User, 'firstName' | 'lastName'> | null | undefined): string {
  return [user?.firstName, user?.lastName].filter(Boolean).join(' ').trim();
}

/** A policy: the actions a user or role may take on a resource. */
export interface PolicyEntry {
  resource: string;
  actions: string[];
}

/** `GET /authorization/policies`: what the policy editor offers. */
export interface PolicyCatalogue {
  resources: { resource: string; label: string; actions: string[] }[];
  actions: string[];
}

/** `GET /authorization/policies/{userId}`. */
export interface UserPolicies {
  userId: string;
  roleId: string;
  roleName?: string;
  isAdmin: boolean;
  role: PolicyEntry[];
  user: PolicyEntry[];
  effective: PolicyEntry[];
}

export interface ActivityCard {
  key: string;
  label: string;
  value: number;
}

/** The access control panel's anchor on the show view (`/users/{id}/show#access-control`). */
export const ACCESS_CONTROL_ANCHOR = 'access-control';
