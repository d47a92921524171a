import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useCanAccess } from 'react-admin';
import { apiRequest } from '../../providers/http';
import { DeclarationProvider, useDeclaration } from '../../src/framework/DeclarationContext';
import { DeclaredList } from '../../src/framework/list/DeclaredList';
import type { AnyResourceDeclaration, Choice } from '../../src/framework/types';
import { EVENT_STATUS_CHOICES, EVENT_STATUSES } from './statuses';

/** `GET /fetchDistinctEventStatus` → `{ message, statusValues: ['blocked', 'failure', 'success'] }`. */
export async function fetchEventStatuses(signal?: AbortSignal): Promise<string[]> {
  const answer = await apiRequest<{ statusValues?: unknown }>('/fetchDistinctEventStatus', { signal });
  const values = answer?.statusValues;
  return Array.isArray(values) ? values.filter((value): value is string => typeof value === 'string') : [];
}

/** A status the console knows reads its text; another one, as the server wrote it. */
export function statusChoices(values: readonly string[]): Choice[] {
  return values.map((value) => EVENT_STATUS_CHOICES.find((choice) => choice.id === value) ?? { id: value, name: value });
}

/**
 * The declared list, with the status filter offering the statuses present in the company's
 * events. Those come from `GET /fetchDistinctEventStatus`, whose answer is not a list of
 * `{ id, name }` (it is `statusValues`, a list of strings), so the declaration's choice
 * sources cannot read it: it is read here and handed to the filter as its choices. Should the
 * call fail, the filter offers every status the server knows.
 */
export default function AccessEventsList() {
  const declaration = useDeclaration();
  const { canAccess } = useCanAccess({ resource: declaration.name, action: 'list' });
  const statuses = useQuery({
    queryKey: [declaration.name, 'statusValues'],
    queryFn: ({ signal }) => fetchEventStatuses(signal),
    enabled: canAccess === true,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const values = statuses.data ?? (statuses.isError ? [...EVENT_STATUSES] : []);
  const key = values.join(',');
  const withStatuses = useMemo<AnyResourceDeclaration>(
    () => ({
      ...declaration,
      filters: declaration.filters?.map((filter) =>
        filter.source === 'status' ? { ...filter, choices: statusChoices(key ? key.split(',') : []) } : filter,
      ),
    }),
    [declaration, key],
  );
  return (
    <DeclarationProvider declaration={withStatuses}>
      <DeclaredList />
    </DeclarationProvider>
  );
}
