import { getStoredUser } from './storage';
import type { NavChild, NavGroup, SessionUser } from './types';

/** Where a signed-in user lands when the navigation names no page. */
export const DEFAULT_LANDING_URL = '/dashboard';

export function navigationItems(user: SessionUser | null | undefined): NavGroup[] {
  return user?.navItems?.userNavItemJson?.items ?? [];
}

/**
 * The landing page after sign-in (spec section 2): the url of the first child of the first
 * navigation item, or that child's first child when the navigation nests one level deeper.
 */
export function firstNavigationUrl(user: SessionUser | null | undefined = getStoredUser()): string {
  const firstChild = navigationItems(user)[0]?.children?.[0];
  return firstChild?.url || firstChild?.children?.[0]?.url || DEFAULT_LANDING_URL;
}

/** Every page url the user's navigation offers, in menu order, without repeats. */
export function navigationPages(user: SessionUser | null | undefined): string[] {
  const pages = new Set<string>();
  const visit = (node: NavGroup | NavChild) => {
    if (node.url) pages.add(node.url);
    node.children?.forEach(visit);
  };
  navigationItems(user).forEach(visit);
  return [...pages];
}
