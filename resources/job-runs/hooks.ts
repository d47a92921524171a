import { useQuery, useQueryClient, type Query } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate, type RaRecord } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { pollUnlessLive } from '../../src/app/live/liveState';
import { failureText } from '../../src/framework/feedback';
import { relatedListKey } from '../../src/framework/related/declaration';
import { useRelatedList } from '../../src/framework/related/useRelatedList';
import { cancelRun, databricksKey, getDatabricksState, getQualityChoices, qualityChoicesKey } from './api';
import { isLive } from './cells';
import { NO_RUNS_FILTER, runQualityList, workflowRunsList, type RunsFilter } from './related';
import type { JobRun, QualityFilter, RunQualityResult } from './types';

/** How often a live run is read again: often enough to follow it, no more. */
export const LIVE_REFRESH_MS = 1500;

/** How often a live run is read: every LIVE_REFRESH_MS, or only as a safety net while the live stream brings its changes (src/app/live). */
export function liveRefreshMs(): number {
  return pollUnlessLive(LIVE_REFRESH_MS);
}

/**
 * react-query's refetchInterval for a run's record: while it is queued or running, every
 * LIVE_REFRESH_MS when the live stream is not open; and no more once it has ended (the last answer says so).
 */
export function refetchWhileLive(query: Query<RaRecord, Error, RaRecord, readonly unknown[]>): number | false {
  return isLive((query.state.data as JobRun | undefined)?.status) ? liveRefreshMs() : false;
}

/** Cancelling a queued or running run; the run (and the lists) are read again after. */
export function useCancelRun(run: JobRun | undefined) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const [cancelling, setCancelling] = useState(false);
  const cancel = async () => {
    if (!run) return;
    setCancelling(true);
    alerts.loading();
    try {
      const { message } = await cancelRun(String(run.id));
      alerts.success(message ?? translate('resources.job-runs.cancel.asked'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setCancelling(false);
      await queryClient.invalidateQueries({ queryKey: ['job-runs'] });
      await queryClient.invalidateQueries({ queryKey: relatedListKey(workflowRunsList) });
      await queryClient.invalidateQueries({ queryKey: relatedListKey(runQualityList) });
      await queryClient.invalidateQueries({ queryKey: ['workflows'] });
    }
  };
  return { cancelling, cancel };
}

/** The Databricks side of a Databricks run, followed while the run is live. */
export function useDatabricksState(run: JobRun) {
  const live = isLive(run.status);
  return useQuery({
    queryKey: [...databricksKey(String(run.id)), live],
    queryFn: ({ signal }) => getDatabricksState(String(run.id), signal),
    enabled: run.engine === 'databricks',
    refetchInterval: live ? liveRefreshMs() : false,
    retry: false,
  });
}

/** One workflow's runs a page at a time, narrowed by status and dates; followed while one of them is live. */
export function useWorkflowRuns(workflowId: string) {
  const [filter, setFilter] = useState<RunsFilter>(NO_RUNS_FILTER);
  const list = useRelatedList<JobRun>(workflowRunsList, workflowId, {
    filter,
    refetchInterval: (rows) => (rows.some((run) => isLive(run.status)) ? liveRefreshMs() : false),
  });
  const change = (changes: Partial<RunsFilter>) => setFilter((current) => ({ ...current, ...changes }));
  return { filter, change, list };
}

const NO_QUALITY_FILTER: QualityFilter = { qualityName: [], columnName: [] };

/**
 * A run's data-quality results a page at a time, narrowed by result names and columns. While the
 * run is live its quality steps may still add results, so they are read again with it.
 */
export function useRunQuality(run: JobRun) {
  const runId = String(run.id);
  const live = isLive(run.status);
  const [filter, setFilter] = useState<QualityFilter>(NO_QUALITY_FILTER);
  const list = useRelatedList<RunQualityResult>(runQualityList, runId, {
    filter,
    refetchInterval: live ? liveRefreshMs() : false,
  });
  const choices = useQuery({
    queryKey: [...qualityChoicesKey(runId), live],
    queryFn: ({ signal }) => getQualityChoices(runId, signal),
    refetchInterval: live ? LIVE_REFRESH_MS * 4 : false,
    retry: false,
  });
  const change = (changes: Partial<QualityFilter>) => setFilter((current) => ({ ...current, ...changes }));
  return { filter, change, list, choices };
}
