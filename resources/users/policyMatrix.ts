import type { PolicyCatalogue, PolicyEntry, UserPolicies } from './types';

/**
 * The access control matrix: one row per resource of the catalogue. A row either follows the
 * role (the role's actions apply) or holds the user's own actions, which replace the role's for
 * that resource — an own row with no action takes the resource away.
 */
export interface MatrixRow {
  resource: string;
  label: string;
  /** The actions the resource has at all (audits are read-only, say). */
  available: string[];
  useRole: boolean;
  role: string[];
  own: string[];
}

export function matrixOf(catalogue: PolicyCatalogue, policies: Pick<UserPolicies, 'role' | 'user'>): MatrixRow[] {
  const role = new Map(policies.role.map((policy) => [policy.resource, policy.actions]));
  const own = new Map(policies.user.map((policy) => [policy.resource, policy.actions]));
  return catalogue.resources.map((entry) => ({
    resource: entry.resource,
    label: entry.label,
    available: entry.actions,
    useRole: !own.has(entry.resource),
    role: role.get(entry.resource) ?? [],
    own: own.get(entry.resource) ?? [],
  }));
}

/** The actions a row grants as shown: the role's or the user's own. */
export function grantedActions(row: MatrixRow): string[] {
  return row.useRole ? row.role : row.own;
}

/** Follow the role again, or take the row over starting from what the role gives. */
export function setUseRole(row: MatrixRow, useRole: boolean): MatrixRow {
  return useRole ? { ...row, useRole, own: [] } : { ...row, useRole, own: [...row.role] };
}

export function toggleAction(row: MatrixRow, action: string, granted: boolean): MatrixRow {
  if (row.useRole || !row.available.includes(action)) return row;
  const wanted = new Set(row.own);
  if (granted) wanted.add(action);
  else wanted.delete(action);
  return { ...row, own: row.available.filter((candidate) => wanted.has(candidate)) };
}

/** The body of `POST /authorization/policies/{id}`: the rows the user holds on their own, in catalogue order. */
export function policiesOf(rows: readonly MatrixRow[]): PolicyEntry[] {
  return rows
    .filter((row) => !row.useRole)
    .map((row) => ({ resource: row.resource, actions: row.available.filter((action) => row.own.includes(action)) }));
}

export function sameMatrix(a: readonly MatrixRow[], b: readonly MatrixRow[]): boolean {
  return JSON.stringify(policiesOf(a)) === JSON.stringify(policiesOf(b));
}
