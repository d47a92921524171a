import { keepPreviousData, useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { daysIn } from './chartLinks';
import { defaultRunRange } from './dashboardCalls';
import { useToastOnError } from './useDashboard';
import { getConnectionsByType, getDailyRuns, getPieCharts, getSignIns, type RunStatus } from './chartsApi';

export { DEFAULT_DAYS } from './dashboardCalls';
/** The contract's widest range. */
export const MAX_DAYS = 366;

function useChartQuery<T>(key: unknown[], load: (signal: AbortSignal) => Promise<T>, enabled: boolean, keepPrevious = false): UseQueryResult<T> {
  const query = useQuery({
    queryKey: ['dashboard', 'charts', ...key],
    queryFn: ({ signal }) => load(signal),
    enabled,
    retry: false,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
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
  const query = useChartQuery(['dailyRuns', range.from, range.to, status], (signal) => getDailyRuns(range.from, range.to, status, signal), enabled && valid, true);
  return { range, setRange, valid, status, setStatus, query };
}

export function usePieCharts(enabled = true) {
  return useChartQuery(['pieCharts'], getPieCharts, enabled);
}

export function useConnectionsByType(enabled = true) {
  return useChartQuery(['connectionsByType'], getConnectionsByType, enabled);
}

export function useSignIns(enabled = true) {
  return useChartQuery(['signIns'], getSignIns, enabled);
}
