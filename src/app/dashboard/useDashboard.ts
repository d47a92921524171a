import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useDataProvider, useNotify } from 'react-admin';
import type { ActiveUser, ConsoleDataProvider, DashboardCard, DashboardCardScope } from '../../../providers/dataProvider';

/** Spec section 8: a failed dashboard call shows its message as an error toast. */
function useToastOnError(error: unknown) {
  const notify = useNotify();
  useEffect(() => {
    if (error) notify(error instanceof Error ? error.message : String(error), { type: 'error' });
  }, [error, notify]);
}

function useDashboardQuery<T>(key: string[], load: (dataProvider: ConsoleDataProvider) => Promise<T>, enabled: boolean): UseQueryResult<T> {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useQuery({ queryKey: ['dashboard', ...key], queryFn: () => load(dataProvider), enabled, retry: false });
  useToastOnError(query.error);
  return query;
}

export function useDashboardCards(scope: DashboardCardScope, enabled = true): UseQueryResult<DashboardCard[]> {
  return useDashboardQuery(['cards', scope], (dataProvider) => dataProvider.getDashboardCards(scope), enabled);
}

export function useActiveUsers(enabled = true): UseQueryResult<ActiveUser[]> {
  return useDashboardQuery(['activeUsers'], (dataProvider) => dataProvider.getActiveUsers(), enabled);
}
