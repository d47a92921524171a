import { createContext, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import {
  createLayoutPreferencesStore,
  type HeaderColours,
  type LayoutMode,
  type LayoutPreferences,
  type LayoutPreferencesStore,
  type MenuColours,
  type ThemeMode,
} from '../../../providers/preferences';

const LayoutPreferencesContext = createContext<LayoutPreferencesStore | null>(null);

/** One preferences store per signed-in user: their local copy at once, then their server copy. */
export function LayoutPreferencesProvider({ userKey, children }: { userKey: string | null; children: ReactNode }) {
  const store = useMemo(() => createLayoutPreferencesStore({ userKey }), [userKey]);
  useEffect(() => {
    void store.load();
    return () => void store.flush();
  }, [store]);
  return <LayoutPreferencesContext.Provider value={store}>{children}</LayoutPreferencesContext.Provider>;
}

export interface LayoutPreferenceActions {
  toggleMenuCollapse(): void;
  toggleMenuGroup(id: string): void;
  setMenuGroupOpen(id: string, open: boolean): void;
  setLayout(layout: LayoutMode): void;
  setMenuColours(layoutType: MenuColours): void;
  setHeaderColours(headerBackColor: HeaderColours): void;
  setTheme(theme: ThemeMode): void;
  toggleNavFixed(): void;
  toggleHeaderFixed(): void;
  toggleFullWidth(): void;
  reset(): void;
}

function useStore(): LayoutPreferencesStore {
  const store = useContext(LayoutPreferencesContext);
  if (!store) throw new Error('useLayoutPreferences must be used inside <LayoutPreferencesProvider>');
  return store;
}

export function useLayoutPreferences(): [LayoutPreferences, LayoutPreferenceActions] {
  const store = useStore();
  const preferences = useSyncExternalStore(store.subscribe, store.get);
  const actions = useMemo<LayoutPreferenceActions>(() => {
    const { dispatch } = store;
    return {
      toggleMenuCollapse: () => dispatch({ type: 'toggleMenuCollapse' }),
      toggleMenuGroup: (id) => dispatch({ type: 'toggleMenuGroup', id }),
      setMenuGroupOpen: (id, open) => dispatch({ type: 'toggleMenuGroup', id, open }),
      setLayout: (layout) => dispatch({ type: 'setLayout', layout }),
      setMenuColours: (layoutType) => dispatch({ type: 'setMenuColours', layoutType }),
      setHeaderColours: (headerBackColor) => dispatch({ type: 'setHeaderColours', headerBackColor }),
      setTheme: (theme) => dispatch({ type: 'setTheme', theme }),
      toggleNavFixed: () => dispatch({ type: 'toggleNavFixed' }),
      toggleHeaderFixed: () => dispatch({ type: 'toggleHeaderFixed' }),
      toggleFullWidth: () => dispatch({ type: 'toggleFullWidth' }),
      reset: () => dispatch({ type: 'reset' }),
    };
  }, [store]);
  return [preferences, actions];
}
