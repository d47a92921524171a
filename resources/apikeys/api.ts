import { useQuery } from '@tanstack/react-query';
import { apikeysContract } from '../../common/contract/apikeys';
import { callAction } from '../../providers/dataProvider';
import type { ApiKey, ApiOperation, OperationDetail, OperationGroup } from './types';

/**
 * The API-keys area's calls beyond the declared CRUD routes: the contract's actions
 * (common/contract/apikeys.ts, docs/api/apikeys.md), their query keys and hooks, and helpers.
 */

const { actions } = apikeysContract;

export const operationCatalogueKey = ['openapi'] as const;
export const operationKey = (id: string) => ['openapi', id] as const;

// The contract says `method` is a text; the server lists the HTTP methods of its own routes (ApiOperation['method']).

export async function getOperations(signal?: AbortSignal): Promise<ApiOperation[]> {
  const answer = await callAction(actions.operations, { signal });
  return Array.isArray(answer?.data) ? (answer.data as ApiOperation[]) : [];
}

export async function getOperation(id: string, signal?: AbortSignal): Promise<OperationDetail> {
  return (await callAction(actions.operation, { values: { id }, signal })).data as OperationDetail;
}

/** Replaces the key's grants with exactly these operations. */
export async function assignOperations(keyId: string, operations: readonly string[]): Promise<{ message?: string; data: ApiKey }> {
  const answer = await callAction(actions.assignOperations, { values: { id: keyId }, body: { operations: [...operations] } });
  return { message: answer.message, data: answer.data };
}

/** The catalogue changes only with a new server version: read once per visit. */
export function useOperationCatalogue(enabled = true) {
  return useQuery({
    queryKey: operationCatalogueKey,
    queryFn: ({ signal }) => getOperations(signal),
    staleTime: 10 * 60_000,
    retry: false,
    enabled,
  });
}

export function useOperation(id: string | null) {
  return useQuery({
    queryKey: operationKey(id ?? ''),
    queryFn: ({ signal }) => getOperation(id!, signal),
    enabled: Boolean(id),
    staleTime: 10 * 60_000,
    retry: false,
  });
}

const METHOD_ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Operations by tag (tags in alphabetical order), each group by path then method. */
export function groupByTag(operations: readonly ApiOperation[]): OperationGroup[] {
  const groups = new Map<string, ApiOperation[]>();
  for (const operation of operations) {
    const tag = operation.tag || 'Other';
    groups.set(tag, [...(groups.get(tag) ?? []), operation]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, list]) => ({
      tag,
      operations: [...list].sort((a, b) => a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method)),
    }));
}

/** Operations whose path, summary, method, tag or id hold every word of the search. */
export function searchOperations(operations: readonly ApiOperation[], search: string): ApiOperation[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...operations];
  return operations.filter((operation) => {
    const text = `${operation.method} ${operation.path} ${operation.summary} ${operation.tag} ${operation.id}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/** Chip colours of the HTTP methods, the same in the explorer and the operations panel. */
export const METHOD_COLORS: Record<string, 'success' | 'info' | 'warning' | 'secondary' | 'error' | 'default'> = {
  GET: 'success',
  POST: 'info',
  PUT: 'warning',
  PATCH: 'secondary',
  DELETE: 'error',
};
