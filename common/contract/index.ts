import type { EntityContract, PageDeclaration, PolicyResourceDeclaration, ScreenContract } from './define';
import { accessEventsContract } from './access-events';
import { apikeysContract } from './apikeys';
import { auditsContract } from './audits';
import { connectionsContract } from './connections';
import { jobRunsContract } from './job-runs';
import { notificationsContract } from './notifications';
import { outboxContract } from './outbox';
import { rolesContract } from './roles';
import {
  apiExplorerScreen,
  companyScreen,
  dashboardScreen,
  marketplaceScreen,
  reportsScreen,
  settingsScreen,
  subscriptionScreen,
} from './screens';
import { sessionsContract } from './sessions';
import { sourceDestinationsContract } from './source-destinations';
import { tablesContract } from './tables';
import { usersContract } from './users';
import { workflowsContract } from './workflows';
import { workspacesContract } from './workspaces';

/**
 * Every entity's contract and every other screen: the one list the policy catalogue, the page
 * catalogue and the menu's icons are derived from. A new entity is one contract file and one
 * entry here.
 */
export const CONTRACTS: readonly EntityContract[] = [
  usersContract,
  rolesContract,
  workspacesContract,
  apikeysContract,
  connectionsContract,
  sourceDestinationsContract,
  tablesContract,
  workflowsContract,
  jobRunsContract,
  notificationsContract,
  auditsContract,
  accessEventsContract,
  sessionsContract,
  outboxContract,
];

export const SCREENS: readonly ScreenContract[] = [
  dashboardScreen,
  apiExplorerScreen,
  marketplaceScreen,
  companyScreen,
  settingsScreen,
  reportsScreen,
  subscriptionScreen,
];

function byOrder<T extends { order: number }>(items: Iterable<T>): T[] {
  return [...items].sort((a, b) => a.order - b.order);
}

/** The policy resources, once each (entities may share one), in the policy matrix's order. */
export function policyCatalogue(
  contracts: readonly EntityContract[] = CONTRACTS,
  screens: readonly ScreenContract[] = SCREENS,
): PolicyResourceDeclaration[] {
  const byResource = new Map<string, PolicyResourceDeclaration>();
  for (const policy of [...contracts.map((c) => c.policy), ...screens.flatMap((s) => (s.policy ? [s.policy] : []))]) {
    const known = byResource.get(policy.resource);
    if (known && known !== policy) throw new Error(`The policy resource "${policy.resource}" is declared twice; share one declaration`);
    byResource.set(policy.resource, policy);
  }
  return byOrder(byResource.values());
}

/** The pages a role can be given, in catalogue order. */
export function pageCatalogue(
  contracts: readonly EntityContract[] = CONTRACTS,
  screens: readonly ScreenContract[] = SCREENS,
): PageDeclaration[] {
  const pages = [...contracts.flatMap((c) => (c.page ? [c.page] : [])), ...screens.map((s) => s.page)];
  const ids = new Set<string>();
  for (const page of pages) {
    if (ids.has(page.id)) throw new Error(`The page "${page.id}" is declared twice`);
    ids.add(page.id);
  }
  return byOrder(pages);
}

export type { EntityContract, PageDeclaration, PolicyResourceDeclaration, ScreenContract } from './define';
export { PAGE_GROUPS, POLICY_ACTIONS, type PageGroup, type PolicyAction } from './define';
