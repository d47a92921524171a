import { apiRequest, type Answer, type Saved, pathId } from '../../providers/http';
import type { Choice } from '../../src/framework/types';
import type { DatabricksRunState, JobRun, QualityFilter } from './types';

/**
 * The run tracker's calls beyond the declared routes and lists (docs/api/workflows.md "Job
 * runs"): cancelling, a run's Databricks state and the choices of its data-quality filter. Query
 * keys start with the resource name, so react-admin's refresh reloads them with the rest.
 */

const id = pathId;

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

export const databricksKey = (runId: string) => ['job-runs', 'databricks', runId];
export const qualityChoicesKey = (runId: string) => ['job-runs', 'qualityChoices', runId];
