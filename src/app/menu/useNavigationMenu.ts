import { useCallback, useMemo } from 'react';
import { useLocation, useTranslate } from 'react-admin';
import { navigationItems } from '../../../providers/firstNavigationUrl';
import { useSessionUser } from '../session';
import { buildMenu, findTrail, type MenuNode } from './navigation';

export interface NavigationMenu {
  items: MenuNode[];
  /** From the top-level entry down to the page the location is on; [] off the menu. */
  trail: MenuNode[];
  label(node: MenuNode): string;
}

/** The signed-in user's menu, where the location is in it, and its translated labels. */
export function useNavigationMenu(): NavigationMenu {
  const user = useSessionUser();
  const items = useMemo(() => buildMenu(navigationItems(user)), [user]);
  const { pathname } = useLocation();
  const trail = useMemo(() => findTrail(items, pathname), [items, pathname]);
  const translate = useTranslate();
  const label = useCallback((node: MenuNode) => translate(`nav.page.${node.id}`, { _: node.title }), [translate]);
  return { items, trail, label };
}
