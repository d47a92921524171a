import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { createContext, createElement, useCallback, useContext, useEffect, useRef, type ReactNode } from 'react';
import { DataProviderContext, useNotify } from 'react-admin';
import {
  readActiveUsers,
  readDashboardCards,
  type ActiveUser,
  type ConsoleDataProvider,
  type DashboardCard,
  type DashboardCardScope,
} from '../../../providers/dataProvider';
import { answeredAheadOptions } from './answeredAhead';
import { ACTIVE_USERS_PATH, DASHBOARD_CARD_PATHS } from '../../../providers/dashboardPaths';

/**
 * Spec section 8: a failed dashboard call shows its message as an error toast, and the rest of
 * the dashboard stays. Calls failing for one reason (the server is down) toast it once: the
 * toasts come one after another, and four of the same say nothing more than one.
 */
const DashboardToasts = createContext<((message: string) => void) | null>(null);

export function DashboardToastsProvider({ children }: { children: ReactNode }) {
  const notify = useNotify();
  const shown = useRef(new Set<string>());
  const toast = useCallback(
    (message: string) => {
      if (shown.current.has(message)) return;
      shown.current.add(message);
      notify(message, { type: 'error' });
    },
    [notify],
  );
  return createElement(DashboardToasts.Provider, { value: toast }, children);
}

export function useToastOnError(error: unknown) {
  const toast = useContext(DashboardToasts);
  const notify = useNotify();
  useEffect(() => {
    if (!error) return;
    const message = error instanceof Error ? error.message : String(error);
    if (toast) toast(message);
    else notify(message, { type: 'error' });
  }, [error, toast, notify]);
}

function useDashboardQuery<T>(
  key: string[],
  load: (dataProvider: ConsoleDataProvider) => Promise<T>,
  enabled: boolean,
  ahead: ReturnType<typeof answeredAheadOptions<T>>,
): UseQueryResult<T> {
  // The data provider as given, not react-admin's per-call wrapper (useDataProvider), whose only
  // addition here, ending a refused session, is the http client's own (providers/http.ts): the
  // wrapper reads the router's route context, so every react-admin route change rendered the
  // whole dashboard again (twice as the console mounts).
  const dataProvider = useContext(DataProviderContext) as ConsoleDataProvider;
  const query = useQuery({ queryKey: ['dashboard', ...key], queryFn: () => load(dataProvider), enabled, retry: false, ...ahead });
  useToastOnError(query.error);
  return query;
}

export function useDashboardCards(scope: DashboardCardScope, enabled = true): UseQueryResult<DashboardCard[]> {
  return useDashboardQuery(
    ['cards', scope],
    (dataProvider) => dataProvider.getDashboardCards(scope),
    enabled,
    answeredAheadOptions(DASHBOARD_CARD_PATHS[scope], readDashboardCards),
  );
}

export function useActiveUsers(enabled = true): UseQueryResult<ActiveUser[]> {
  return useDashboardQuery(
    ['activeUsers'],
    (dataProvider) => dataProvider.getActiveUsers(),
    enabled,
    answeredAheadOptions(ACTIVE_USERS_PATH, readActiveUsers),
  );
}
