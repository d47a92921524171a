import type { NavChild, NavGroup } from '../../../providers/types';

/**
 * The menu as the console shows it, built from the stored user's navigation
 * (`navItems.userNavItemJson.items[]`): groups with children, children that may nest again.
 * Only what the server assigned to the user's role is there; nothing is added.
 */
export interface MenuNode {
  /** Stable id: translation key (`nav.page.<id>`) and open/closed memory for groups. */
  id: string;
  title: string;
  icon?: string;
  /** A page: where the item links to. A group has children instead (it may also have a url). */
  url?: string;
  children: MenuNode[];
}

function nodeId(item: NavChild | NavGroup, parentId: string | null, index: number): string {
  if (item.id) return item.id;
  if (item.url) return item.url.replace(/^\/+/, '').replace(/\//g, '.') || 'home';
  return parentId ? `${parentId}.${index}` : `group-${index}`;
}

function toNode(item: NavChild | NavGroup, parentId: string | null, index: number): MenuNode | null {
  const id = nodeId(item, parentId, index);
  const children = (item.children ?? [])
    .map((child, childIndex) => toNode(child, id, childIndex))
    .filter((child): child is MenuNode => child !== null);
  // An entry with neither a page nor pages under it leads nowhere: leave it out.
  if (!item.url && children.length === 0) return null;
  return { id, title: item.title || id, icon: item.icon, url: item.url || undefined, children };
}

export function buildMenu(items: readonly NavGroup[] | null | undefined): MenuNode[] {
  return (items ?? []).map((item, index) => toNode(item, null, index)).filter((node): node is MenuNode => node !== null);
}

export function isGroup(node: MenuNode): boolean {
  return node.children.length > 0;
}

function matches(url: string, pathname: string): boolean {
  const base = url.replace(/\/+$/, '') || '/';
  return pathname === base || (base !== '/' && pathname.startsWith(`${base}/`));
}

/**
 * The chain of nodes from a top-level entry down to the page the location is on (the one whose
 * url matches the path best), or [] when the location is not a menu page.
 */
export function findTrail(menu: readonly MenuNode[], pathname: string): MenuNode[] {
  let best: MenuNode[] = [];
  let bestLength = -1;
  const visit = (node: MenuNode, ancestors: MenuNode[]) => {
    const trail = [...ancestors, node];
    if (node.url && matches(node.url, pathname) && node.url.length > bestLength) {
      best = trail;
      bestLength = node.url.length;
    }
    node.children.forEach((child) => visit(child, trail));
  };
  menu.forEach((node) => visit(node, []));
  return best;
}
