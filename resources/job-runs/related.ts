import { jobRunsContract } from '../../common/contract/job-runs';
import { defineRelatedList } from '../../src/framework/related/declaration';
import type { QualityFilter } from './types';

/** What a workflow's runs are narrowed to: statuses (several) and queued dates. */
export interface RunsFilter {
  status: string[];
  startDate: string;
  endDate: string;
}

export const NO_RUNS_FILTER: RunsFilter = { status: [], startDate: '', endDate: '' };

/** The filled fields of a runs filter: exactly what the filter route's body carries. */
export function runsFilterBody(filter: RunsFilter): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (filter.status.length > 0) body.status = filter.status;
  if (filter.startDate) body.startDate = filter.startDate;
  if (filter.endDate) body.endDate = filter.endDate;
  return body;
}

/**
 * One workflow's runs, newest first: the contract's list by workflow, or the filter route with
 * `?workflowId=` once something is chosen.
 */
export const workflowRunsList = defineRelatedList<RunsFilter>({
  name: 'job-runs.ofWorkflow',
  call: (filter) => {
    const body = runsFilterBody(filter);
    if (Object.keys(body).length === 0) return { route: jobRunsContract.related.workflow };
    return { route: { path: '/jobRunTracker/filters?workflowId={id}&offset={offset}&limit={limit}', method: 'POST' }, body };
  },
});

/**
 * A run's data-quality results: `GET /jobRunTracker/{id}/dataQuality`, or
 * `POST /dataQuality/filters?jobRunTrackerId=` with the chosen names and columns (and the page).
 */
export const runQualityList = defineRelatedList<QualityFilter>({
  name: 'job-runs.quality',
  call: ({ qualityName, columnName }) => {
    if (qualityName.length === 0 && columnName.length === 0)
      return { route: '/jobRunTracker/{id}/dataQuality?offset={offset}&limit={limit}' };
    return {
      route: { path: '/dataQuality/filters?jobRunTrackerId={id}', method: 'POST', pagingInBody: true },
      body: { ...(qualityName.length > 0 ? { qualityName } : {}), ...(columnName.length > 0 ? { columnName } : {}) },
    };
  },
});
