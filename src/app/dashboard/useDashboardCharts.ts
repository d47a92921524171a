import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { daysIn } from './chartLinks';
import { answeredAheadOptions } from './answeredAhead';
import { CONNECTIONS_BY_TYPE_PATH, dailyRunsPath, defaultRunRange, PIE_CHARTS_PATH, SIGN_INS_PATH } from './dashboardCalls';
import { useToastOnError } from './useDashboard';
import {
  getConnectionsByType,
  getDailyRuns,
  getPieCharts,
  getSignIns,
  readConnectionsByType,
  readDailyRuns,
  readPieCharts,
  readSignIns,
  type RunStatus,
} from './chartsApi';

export { DEFAULT_DAYS } from './dashboardCalls';
/** The contract's widest range. */
export const MAX_DAYS = 366;

function useChartQuery<T>(
  key: unknown[],
  load: (signal: AbortSignal) => Promise<T>,
  enabled: boolean,
  ahead: ReturnType<typeof answeredAheadOptions<T>>,
  keepPrevious = false,
): UseQueryResult<T> {
  const query = useQuery({
    queryKey: ['dashboard', 'charts', ...key],
    queryFn: ({ signal }) => load(signal),
    enabled,
    retry: false,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    ...ahead,
  });
  useToastOnError(query.error);
  return query;
}

export interface DayRange {
  from: string;
  to: string;
}

export function rangeIsValid({ from, to }: DayRange): boolean {
  const days = daysIn(from, to);
  return Number.isFinite(days) && days >= 1 && days <= MAX_DAYS;
}

/** Runs per day by status over a range (the last 14 days at first), all statuses or one. */
export function useDailyRuns(enabled = true) {
  const [range, setRange] = useState<DayRange>(defaultRunRange);
  const [status, setStatus] = useState<RunStatus | ''>('');
  const valid = rangeIsValid(range);
  // Only the first range, all statuses, is called ahead (dashboardCalls.ts); another range or status finds nothing there.
  const ahead = answeredAheadOptions(status === '' && valid ? dailyRunsPath(range.from, range.to) : '', readDailyRuns);
  const query = useChartQuery(
    ['dailyRuns', range.from, range.to, status],
    (signal) => getDailyRuns(range.from, range.to, status, signal),
    enabled && valid,
    ahead,
    true,
  );
  return { range, setRange, valid, status, setStatus, query };
}

export function usePieCharts(enabled = true) {
  return useChartQuery(['pieCharts'], getPieCharts, enabled, answeredAheadOptions(PIE_CHARTS_PATH, readPieCharts));
}

export function useConnectionsByType(enabled = true) {
  return useChartQuery(
    ['connectionsByType'],
    getConnectionsByType,
    enabled,
    answeredAheadOptions(CONNECTIONS_BY_TYPE_PATH, readConnectionsByType),
  );
}

export function useSignIns(enabled = true) {
  return useChartQuery(['signIns'], getSignIns, enabled, answeredAheadOptions(SIGN_INS_PATH, readSignIns));
}
