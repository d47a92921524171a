import { useCallback, useEffect, useRef } from 'react';
import { useAuthProvider, useDataProvider } from 'react-admin';
import { resourceListUrl } from '../../../providers/authProvider';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { resources } from '../../../resources';

/** A pointer resting this long on a menu entry means the user is heading there. */
export const HOVER_INTENT_MS = 100;

const resourceByListUrl = new Map(resources.map((declaration) => [resourceListUrl(declaration.name), declaration.name]));

/**
 * Menu entry handlers that start the calls of the list page behind the entry as the user heads
 * for it (the pointer rests on it, or presses it), so that its rows come with the page rather
 * than a round trip after it rendered. Only for a list the user may read: a refused call would
 * raise the access-denied alert of a page they have not opened.
 */
export function usePrepareListPage(url: string | undefined) {
  const dataProvider = useDataProvider<DeclaredDataProvider>();
  const authProvider = useAuthProvider();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const resource = url ? resourceByListUrl.get(url.replace(/\/+$/, '')) : undefined;

  const prepare = useCallback(() => {
    if (!resource || typeof dataProvider.prepareList !== 'function') return;
    const allowed = authProvider?.canAccess ? authProvider.canAccess({ resource, action: 'list' }) : Promise.resolve(true);
    allowed.then((may) => may && dataProvider.prepareList(resource)).catch(() => undefined);
  }, [authProvider, dataProvider, resource]);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  if (!resource) return {};
  return {
    onPointerEnter: () => {
      cancel();
      timer.current = setTimeout(prepare, HOVER_INTENT_MS);
    },
    onPointerLeave: cancel,
    onPointerDown: () => {
      cancel();
      prepare();
    },
  };
}
