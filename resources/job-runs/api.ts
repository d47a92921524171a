import { readList } from '../../providers/dataProvider';
import { apiRequest, type Answer, type Saved, pathId } from '../../providers/http';
import type { Choice } from '../../src/framework/types';
import type { Page, PageRequest } from '../tables/api';
import type { DatabricksRunState, JobRun, QualityFilter, RunQualityResult } from './types';

/**
 * The run tracker's calls beyond the declared routes (docs/api/workflows.md "Job runs"): one
 * workflow's runs, cancelling, a run's Databricks state and its data-quality results. Query
 * keys start with the resource name, so react-admin's refresh reloads them with the rest.
 */

const id = pathId;

function pageOf<T>(answer: unknown): Page<T> {
  const list = readList(answer);
  return { rows: list.rows as unknown as T[], count: list.count, countExact: list.countExact };
}

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
 * A page of one workflow's runs, newest first: `GET /jobRunTracker/{workflowId}/{offset}/{limit}`,
 * or the filter route with `?workflowId=` once something is chosen.
 */
export async function getWorkflowRuns(
  workflowId: string,
  { offset, limit }: PageRequest,
  filter: RunsFilter,
  signal?: AbortSignal,
): Promise<Page<JobRun>> {
  const body = runsFilterBody(filter);
  if (Object.keys(body).length === 0) return pageOf(await apiRequest(`/jobRunTracker/${id(workflowId)}/${offset}/${limit}`, { signal }));
  return pageOf(await apiRequest('/jobRunTracker/filters', { method: 'POST', query: { workflowId, offset, limit }, body, signal }));
}

/** Asks a queued or running run to stop. */
export async function cancelRun(runId: string): Promise<Saved<JobRun>> {
  const answer = await apiRequest<Answer<JobRun>>(`/jobRunTracker/${id(runId)}/cancel`, { method: 'PUT' });
  return { message: answer?.message, data: answer?.data };
}

export async function getDatabricksState(runId: string, signal?: AbortSignal): Promise<DatabricksRunState> {
  return (await apiRequest<Answer<DatabricksRunState>>(`/workflow/databricks/job/status/${id(runId)}`, { signal })).data;
}

/** The choices of a run's data-quality filter: the names and the columns of its results. */
export async function getQualityChoices(runId: string, signal?: AbortSignal): Promise<Record<keyof QualityFilter, Choice[]>> {
  const answer = await apiRequest<Answer<Partial<Record<keyof QualityFilter, Choice[]>>>>('/dataQuality/filters', {
    query: { jobRunTrackerId: runId },
    signal,
  });
  return { qualityName: answer?.data?.qualityName ?? [], columnName: answer?.data?.columnName ?? [] };
}

/**
 * A page of a run's data-quality results: `GET /jobRunTracker/{id}/dataQuality`, or
 * `POST /dataQuality/filters?jobRunTrackerId=` with the chosen names and columns.
 */
export async function getRunQuality(
  runId: string,
  { offset, limit }: PageRequest,
  filter: QualityFilter,
  signal?: AbortSignal,
): Promise<Page<RunQualityResult>> {
  const body: Record<string, unknown> = {};
  if (filter.qualityName.length > 0) body.qualityName = filter.qualityName;
  if (filter.columnName.length > 0) body.columnName = filter.columnName;
  if (Object.keys(body).length === 0) {
    return pageOf(await apiRequest(`/jobRunTracker/${id(runId)}/dataQuality`, { query: { offset, limit }, signal }));
  }
  return pageOf(
    await apiRequest('/dataQuality/filters', {
      method: 'POST',
      query: { jobRunTrackerId: runId },
      body: { ...body, offset, limit },
      signal,
    }),
  );
}

export const workflowRunsKey = (workflowId: string) => ['job-runs', 'ofWorkflow', workflowId];
export const databricksKey = (runId: string) => ['job-runs', 'databricks', runId];
export const qualityKey = (runId: string) => ['job-runs', 'quality', runId];
export const qualityChoicesKey = (runId: string) => ['job-runs', 'qualityChoices', runId];
