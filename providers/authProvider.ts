import type { AuthProvider, UserIdentity } from 'react-admin';
import { AUTH_PATHS } from './authPaths';
import { logout, signIn, type Credentials } from './authActions';
import { navigationPages } from './firstNavigationUrl';
import { INVALID_TOKEN_TEXT } from './http';
import { allows, clearCallerPolicies, loadCallerPolicies } from './policies';
import { getStoredUser, isSignedIn } from './storage';
import type { SessionUser } from './types';

export interface ConsolePermissions {
  isAdmin: boolean;
  /** The urls of the navigation pages the user's role was given. */
  pages: string[];
}

export interface ConsoleIdentity extends UserIdentity {
  email?: string;
  impersonator: SessionUser['impersonator'] | null;
}

export function permissionsOf(user: SessionUser | null): ConsolePermissions {
  return { isAdmin: user?.isAdmin === true, pages: navigationPages(user) };
}

/** A resource's list page: `/users` for the `users` resource. */
export function resourceListUrl(resource: string): string {
  return `/${resource.replace(/^\/+|\/+$/g, '')}`;
}

/**
 * The fallback for a server without the caller's-policies route: admins reach everything,
 * others a resource whose list page is in their navigation.
 */
export function canAccessResource(permissions: ConsolePermissions, resource: string): boolean {
  if (permissions.isAdmin) return true;
  const listUrl = resourceListUrl(resource);
  return permissions.pages.some((page) => page.replace(/\/+$/, '') === listUrl);
}

function signedInUser(): SessionUser | null {
  const user = getStoredUser();
  return isSignedIn(user) ? user : null;
}

function fullName(user: SessionUser): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email || '';
}

/**
 * react-admin's view of the session. The sign-in screens live outside react-admin (they must
 * stay light), so `login` is only here for completeness and react-admin redirects to them.
 * Permissions come from the caller's policies, named by each declaration's `access`.
 */
/** react-admin's AuthProvider, and what the console's query client can learn from it without waiting. */
export interface ConsoleAuthProvider extends AuthProvider {
  /** True when `canAccess` is sure to answer yes, known now: an admin may do everything. */
  grantedNow?(params: { resource: string; action: string }): boolean;
  /** True when `checkAuth` is sure to pass, known now: the session is in this browser's storage. */
  signedInNow?(): boolean;
  /** What `getPermissions` answers, when it is known now (the signed-in user's), else undefined. */
  permissionsNow?(): ConsolePermissions | undefined;
}

/** A resource as permissions see it: its name, and the policy resource that guards it (default: the name). */
export interface GuardedResource {
  name: string;
  access?: string;
}

export function createAuthProvider(resources: readonly GuardedResource[]): ConsoleAuthProvider {
  const policyNames = new Map(resources.map((resource) => [resource.name, resource.access ?? resource.name]));

  return {
    async login(params: Credentials) {
      const result = await signIn(params);
      return { redirectTo: result.next };
    },

    async logout() {
      clearCallerPolicies();
      await logout();
      return AUTH_PATHS.signIn;
    },

    async checkAuth() {
      if (!isSignedIn()) throw { redirectTo: AUTH_PATHS.signIn, message: false };
    },

    /** Only an invalid token ends the session; a 403 is handled by the http client's catalogue. */
    async checkError(error: unknown) {
      const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
      if (status === 401 && typeof message === 'string' && message.includes(INVALID_TOKEN_TEXT)) {
        throw { redirectTo: AUTH_PATHS.signIn, message: false };
      }
    },

    async getIdentity(): Promise<ConsoleIdentity> {
      const user = signedInUser();
      if (!user) throw new Error('Not signed in');
      return {
        id: user.id ?? user.email ?? '',
        fullName: fullName(user),
        avatar: undefined,
        email: user.email,
        impersonator: user.impersonator ?? null,
      };
    },

    async getPermissions(): Promise<ConsolePermissions> {
      return permissionsOf(signedInUser());
    },

    /** Admins may do everything; others what their effective policies allow on the resource's policy name. */
    async canAccess({ resource, action }: { resource: string; action: string }) {
      const user = signedInUser();
      if (!user) return false;
      if (user.isAdmin) return true;
      const policies = await loadCallerPolicies().catch(() => undefined);
      if (policies === undefined) return false;
      if (policies === null) return canAccessResource(permissionsOf(user), resource);
      return allows(policies, policyNames.get(resource) ?? resource, action);
    },
    grantedNow() {
      return signedInUser()?.isAdmin === true;
    },
    signedInNow() {
      return isSignedIn();
    },
    permissionsNow() {
      const user = signedInUser();
      return user ? permissionsOf(user) : undefined;
    },
  };
}
