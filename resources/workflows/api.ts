import { useQuery } from '@tanstack/react-query';
import { jobRunsContract } from '../../common/contract/job-runs';
import { routeSpec } from '../../common/contract/routes';
import { sourceDestinationsContract } from '../../common/contract/source-destinations';
import { tablesContract } from '../../common/contract/tables';
import { workflowsContract, type WorkflowDestinationRows } from '../../common/contract/workflows';
import { callAction, fillPath } from '../../providers/dataProvider';
import { apiRequest, type Answer } from '../../providers/http';
import { PICKER_LIMIT } from '../connections/api';
import type { ColumnChoice, GitRepository, TableChoice, WorkflowCheck } from './types';

/**
 * The workflows area's calls beyond the declared routes: the contracts' actions
 * (common/contract/workflows.ts, job-runs.ts) for running a workflow, checking it and a
 * repository's files, and the tables a quality task may check (the tables' list).
 */

const { actions } = workflowsContract;

/** Queues a run of the workflow whose run id is `jobId`; answers the new run. `fullCopy`: its incremental copies read every row once. */
export async function runWorkflow(jobId: string, fullCopy = false) {
  return callAction(jobRunsContract.actions.start, { values: { jobId }, body: fullCopy ? { jobId, fullCopy: true } : { jobId } });
}

/** A table's columns as the connection describes them now: where a copy's key and watermark columns are picked. */
export async function getTableColumns(connectionId: string, table: string, signal?: AbortSignal): Promise<ColumnChoice[]> {
  const answer = await callAction(actions.tableColumns, { values: { id: connectionId }, query: { table }, signal });
  return Array.isArray(answer?.data?.columns)
    ? answer.data.columns.map((column) => ({ name: column.name, dataType: column.dataType }))
    : [];
}

export function useTableColumns(connectionId: string | null, table: string | null) {
  return useQuery({
    queryKey: ['workflows', 'tableColumns', connectionId ?? '', table ?? ''],
    queryFn: ({ signal }) => getTableColumns(connectionId!, table!, signal),
    enabled: Boolean(connectionId && table),
    staleTime: 60_000,
    retry: false,
  });
}

/** How many rows the destination tables of the workflow's append copies hold now. */
export async function getDestinationRows(workflowId: string): Promise<WorkflowDestinationRows['tables']> {
  const answer = await callAction(actions.destinationRows, { values: { id: workflowId } });
  return Array.isArray(answer?.data?.tables) ? answer.data.tables : [];
}

/** Checks the workflow against what it names now, without running it. */
export async function checkWorkflow(workflowId: string): Promise<{ message?: string; data: WorkflowCheck }> {
  const answer = await callAction(actions.check, { values: { id: workflowId } });
  return { message: answer?.message, data: { ok: Boolean(answer?.data?.ok), problems: answer?.data?.problems ?? [] } };
}

/** The branches of the repository behind a git or Bitbucket connection, and its files at `ref` (the default branch when blank). */
export async function getGitRepository(connectionId: string, ref: string | null | undefined, signal?: AbortSignal): Promise<GitRepository> {
  const answer = await callAction(actions.gitRepository, { values: { id: connectionId }, query: { ref: ref || undefined }, signal });
  const data = answer?.data;
  return {
    defaultBranch: data?.defaultBranch ?? null,
    branches: Array.isArray(data?.branches) ? data.branches : [],
    ref: data?.ref ?? null,
    commit: data?.commit ?? null,
    files: Array.isArray(data?.files) ? data.files : [],
  };
}

/** The registered tables a quality task may check: the contract's largest page. */
export async function getTableChoices(signal?: AbortSignal): Promise<TableChoice[]> {
  const path = fillPath(routeSpec(tablesContract.routes.list, 'list').path, { offset: 0, limit: PICKER_LIMIT });
  const answer = await apiRequest<Answer<{ rows?: TableChoice[] }>>(path, { signal });
  return Array.isArray(answer?.data?.rows)
    ? answer.data.rows.map((row) => ({ id: row.id, name: row.name, connectionName: row.connectionName ?? null }))
    : [];
}

export const gitRepositoryKey = (connectionId: string, ref: string) => ['workflows', 'gitRepo', connectionId, ref];

export function useGitRepository(connectionId: string | null | undefined, ref: string | null | undefined) {
  return useQuery({
    queryKey: gitRepositoryKey(connectionId ?? '', ref ?? ''),
    queryFn: ({ signal }) => getGitRepository(connectionId!, ref, signal),
    enabled: Boolean(connectionId),
    // Another branch of the same repository: its files stay shown until the new ones come.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === (connectionId ?? '') ? previous : undefined),
    staleTime: 60_000,
    retry: false,
  });
}

export function useTableChoices(enabled = true) {
  return useQuery({
    queryKey: ['workflows', 'tableChoices'],
    queryFn: ({ signal }) => getTableChoices(signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

/** A pair as a copy task reads it: the connections it copies from and to. */
export interface PairConnections {
  id: string;
  sourceId: string | null;
  destinationId: string | null;
}

/** The active pairs (`GET /active/source/destination`), whose connections a copy task's tables come from. */
export async function getActivePairs(signal?: AbortSignal): Promise<PairConnections[]> {
  const path = routeSpec(sourceDestinationsContract.routes.list, 'list').path;
  const answer = await apiRequest<Answer<PairConnections[] | { rows?: PairConnections[] }>>(path, { signal });
  const rows = Array.isArray(answer?.data) ? answer.data : Array.isArray(answer?.data?.rows) ? answer.data.rows : [];
  return rows.map((pair) => ({ id: pair.id, sourceId: pair.sourceId ?? null, destinationId: pair.destinationId ?? null }));
}

export function useActivePairs(enabled = true) {
  return useQuery({
    queryKey: ['workflows', 'activePairs'],
    queryFn: ({ signal }) => getActivePairs(signal),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}
