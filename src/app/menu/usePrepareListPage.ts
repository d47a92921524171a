import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useContext, useEffect, useRef, type KeyboardEvent } from 'react';
import { DataProviderContext, useAuthProvider } from 'react-admin';
import { resourceListUrl } from '../../../providers/authProvider';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { resources } from '../../../resources';
import { prepareFirstPage } from '../../framework/list/firstPage';
import { ConsoleQueryClient } from '../consoleQueryClient';

/** A pointer (or the keyboard's focus) resting this long on a link means the user is heading there. */
export const HOVER_INTENT_MS = 100;

const resourceByListUrl = new Map(resources.map((declaration) => [resourceListUrl(declaration.name), declaration.name]));
const declarationByName = new Map(resources.map((declaration) => [declaration.name, declaration]));

/**
 * Handlers for a link to a list page (a menu entry, a dashboard card) that start the calls of
 * that page as the user heads for it (the pointer rests on it or presses it; the keyboard
 * focuses it for as long, or presses Enter on it), so that its rows come with the page rather
 * than a round trip after it rendered (src/framework/list/firstPage.ts). Only for a list the
 * user may read: a refused call would raise the access-denied alert of a page they have not opened.
 */
export function usePrepareListPage(url: string | undefined) {
  // The dataProvider itself: react-admin's wrapper (useDataProvider) takes every method for one that answers a promise, which prepareList does not.
  const dataProvider = useContext(DataProviderContext) as DeclaredDataProvider | null;
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const resource = url ? resourceByListUrl.get(url.replace(/\/+$/, '')) : undefined;

  const prepare = useCallback(() => {
    if (!resource || typeof dataProvider?.prepareList !== 'function') return;
    // The page's access checks too, so that it opens with its answers rather than a loading state.
    if (queryClient instanceof ConsoleQueryClient) void queryClient.prepareAccess(resource);
    const allowed = authProvider?.canAccess ? authProvider.canAccess({ resource, action: 'list' }) : Promise.resolve(true);
    allowed
      .then((may) => {
        if (!may) return;
        const declaration = declarationByName.get(resource);
        if (declaration) prepareFirstPage(queryClient, dataProvider, declaration);
      })
      .catch(() => undefined);
  }, [authProvider, dataProvider, queryClient, resource]);

  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);

  if (!resource) return {};
  const prepareSoon = () => {
    cancel();
    timer.current = setTimeout(prepare, HOVER_INTENT_MS);
  };
  return {
    onPointerEnter: prepareSoon,
    onPointerLeave: cancel,
    // The keyboard's way: the entry focused (Tab) for as long, or Enter pressed on it.
    onFocus: prepareSoon,
    onBlur: cancel,
    onKeyDown: (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      cancel();
      prepare();
    },
    onPointerDown: () => {
      cancel();
      prepare();
    },
  };
}
