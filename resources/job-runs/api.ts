import { jobRunsContract } from '../../common/contract/job-runs';
import { callAction } from '../../providers/dataProvider';
import type { Choice } from '../../src/framework/types';
import type { DatabricksRunState, QualityFilter } from './types';

/**
 * The run tracker's calls beyond the declared routes and lists: the contract's actions
 * (common/contract/job-runs.ts) for cancelling, a run's Databricks state and the choices of its
 * data-quality filter. Query keys start with the resource name, so react-admin's refresh reloads
 * them with the rest.
 */

const { actions } = jobRunsContract;

/** Asks a queued or running run to stop; answers the run. */
export async function cancelRun(runId: string) {
  return callAction(actions.cancel, { values: { id: runId } });
}

export async function getDatabricksState(runId: string, signal?: AbortSignal): Promise<DatabricksRunState> {
  return (await callAction(actions.databricksState, { values: { id: runId }, signal })).data;
}

/** The choices of a run's data-quality filter: the names and the columns of its results. */
export async function getQualityChoices(runId: string, signal?: AbortSignal): Promise<Record<keyof QualityFilter, Choice[]>> {
  const answer = await callAction(actions.qualityChoices, { query: { jobRunTrackerId: runId }, signal });
  return { qualityName: answer?.data?.qualityName ?? [], columnName: answer?.data?.columnName ?? [] };
}

export const databricksKey = (runId: string) => ['job-runs', 'databricks', runId];
export const qualityChoicesKey = (runId: string) => ['job-runs', 'qualityChoices', runId];
