import { callAction } from './actions';
import { ApiError } from './http';
import { getAccessToken } from './storage';

/**
 * The caller's effective policies (`GET /authorization/user/policies`): for each policy
 * resource, the actions the caller may take. Loaded once per session (a new sign-in or an
 * impersonation brings a new token, hence a new load) and shared by every permission check.
 */
export type PolicyAction = 'read' | 'create' | 'update' | 'delete';

export interface Policy {
  resource: string;
  actions: string[];
}

export interface CallerPolicies {
  isAdmin: boolean;
  policies: Policy[];
}

/**
 * react-admin's actions as the server's policy actions: reading covers the list, a record and
 * the export; activation is an update.
 */
const ACTIONS: Record<string, PolicyAction> = {
  list: 'read',
  show: 'read',
  export: 'read',
  read: 'read',
  create: 'create',
  clone: 'create',
  edit: 'update',
  update: 'update',
  activate: 'update',
  delete: 'delete',
};

export function policyActionOf(action: string): PolicyAction | null {
  return ACTIONS[action] ?? null;
}

/** Whether the policies allow a react-admin action on a policy resource. Unknown actions are refused. */
export function allows(caller: CallerPolicies, policyResource: string, action: string): boolean {
  if (caller.isAdmin) return true;
  const wanted = policyActionOf(action);
  if (!wanted) return false;
  return caller.policies.some((policy) => policy.resource === policyResource && policy.actions.includes(wanted));
}

function readPolicies(answer: unknown): CallerPolicies {
  const data = (answer as { data?: { isAdmin?: unknown; policies?: unknown } } | null)?.data;
  const policies = Array.isArray(data?.policies)
    ? (data.policies as Policy[]).filter((policy) => policy && typeof policy.resource === 'string' && Array.isArray(policy.actions))
    : [];
  return { isAdmin: data?.isAdmin === true, policies };
}

let cache: { token: string; promise: Promise<CallerPolicies | null> } | null = null;

/**
 * The caller's policies, from the session's cache. Null when the server has no such route
 * (404): the console then falls back to the navigation it was given.
 */
export function loadCallerPolicies(): Promise<CallerPolicies | null> {
  const token = getAccessToken();
  if (!token) return Promise.resolve(null);
  if (cache?.token === token) return cache.promise;
  // The users contract (and zod with it) comes with the console, not with the sign-in screens that also ask.
  const promise = import('../common/contract/users')
    .then(({ usersContract }) => callAction(usersContract.actions.ownPolicies))
    .then(readPolicies, (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null;
      // Anything else is worth another try at the next check.
      if (cache?.promise === promise) cache = null;
      throw error;
    });
  cache = { token, promise };
  return promise;
}

export function clearCallerPolicies(): void {
  cache = null;
}
