import type { PageEntry, PolicyEntry, PolicyResource } from './types';

/**
 * The policy matrix and the page list as values: what the editor holds, what it sends.
 * Plain functions so the rules (catalogue order, nothing the resource cannot do, only the
 * difference of pages) are the same in the form, the show view and the tests.
 */

/** The console's page a role needs to come back to this editor: the server keeps it on admin roles. */
export const ROLES_PAGE_ID = 'roles';
/** What a new role gets unless the form says otherwise, as on the server. */
export const DEFAULT_PAGE_IDS: readonly string[] = ['dashboard'];

/**
 * Policies as the server stores them: catalogue order, each action once and only if the
 * resource has it, resources without an action left out.
 */
export function normalisePolicies(policies: readonly PolicyEntry[] | undefined, catalogue: readonly PolicyResource[]): PolicyEntry[] {
  const wanted = new Map<string, Set<string>>();
  for (const policy of policies ?? []) {
    const actions = wanted.get(policy.resource) ?? new Set<string>();
    policy.actions.forEach((action) => actions.add(action));
    wanted.set(policy.resource, actions);
  }
  return catalogue
    .map((entry) => ({ resource: entry.resource, actions: entry.actions.filter((action) => wanted.get(entry.resource)?.has(action)) }))
    .filter((entry) => entry.actions.length > 0);
}

export function allows(policies: readonly PolicyEntry[] | undefined, resource: string, action: string): boolean {
  return (policies ?? []).some((policy) => policy.resource === resource && policy.actions.includes(action));
}

/** One box of the matrix ticked or cleared. */
export function withAction(
  policies: readonly PolicyEntry[] | undefined,
  catalogue: readonly PolicyResource[],
  resource: string,
  action: string,
  on: boolean,
): PolicyEntry[] {
  const others = (policies ?? []).filter((policy) => policy.resource !== resource);
  const current = (policies ?? []).filter((policy) => policy.resource === resource).flatMap((policy) => policy.actions);
  const actions = on ? [...current, action] : current.filter((candidate) => candidate !== action);
  return normalisePolicies([...others, { resource, actions }], catalogue);
}

/** The row's "all" box: every action the resource has, or none. */
export function withAllActions(
  policies: readonly PolicyEntry[] | undefined,
  catalogue: readonly PolicyResource[],
  resource: string,
  on: boolean,
): PolicyEntry[] {
  const others = (policies ?? []).filter((policy) => policy.resource !== resource);
  const entry = catalogue.find((candidate) => candidate.resource === resource);
  return normalisePolicies(on && entry ? [...others, { resource, actions: [...entry.actions] }] : others, catalogue);
}

export function samePolicies(
  a: readonly PolicyEntry[] | undefined,
  b: readonly PolicyEntry[] | undefined,
  catalogue: readonly PolicyResource[],
): boolean {
  return JSON.stringify(normalisePolicies(a, catalogue)) === JSON.stringify(normalisePolicies(b, catalogue));
}

/** What `assign` and `unassign` must be told to go from one page list to the other. */
export function pageDifference(before: readonly string[], after: readonly string[]): { assign: string[]; unassign: string[] } {
  const had = new Set(before);
  const has = new Set(after);
  return {
    assign: [...has].filter((id) => !had.has(id)),
    unassign: [...had].filter((id) => !has.has(id)),
  };
}

/** Page ids in catalogue order (unknown ids kept at the end, so nothing is lost silently). */
export function orderedPageIds(pageIds: readonly string[], catalogue: readonly PageEntry[]): string[] {
  const wanted = new Set(pageIds);
  const known = catalogue.filter((page) => wanted.has(page.id)).map((page) => page.id);
  return [...known, ...pageIds.filter((id) => !catalogue.some((page) => page.id === id))];
}

export interface PageGroup {
  key: string;
  title: string;
  pages: PageEntry[];
}

/** The catalogue's pages by menu group, groups and pages in the catalogue's order. */
export function groupPages(pages: readonly PageEntry[]): PageGroup[] {
  const groups = new Map<string, PageGroup>();
  for (const page of pages) {
    let group = groups.get(page.group);
    if (!group) {
      group = { key: page.group, title: page.groupTitle ?? page.group, pages: [] };
      groups.set(page.group, group);
    }
    group.pages.push(page);
  }
  return [...groups.values()];
}
