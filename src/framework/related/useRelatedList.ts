import { keepPreviousData } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useGetManyReference, type Identifier, type RaRecord } from 'react-admin';
import { SERVER_ORDER } from '../../../common/contract/routes';
import type { AnyRelatedList } from './declaration';

/** Rows a page of a related list shows unless it says otherwise. */
export const RELATED_PER_PAGE = 10;

/** A page that holds a whole list answered at once (one shown without a pager). */
export const WHOLE_LIST = Number.MAX_SAFE_INTEGER;

/** A related list by name (a declared one), or a resource's list by a target its contract relates. */
export type RelatedSource = Pick<AnyRelatedList, 'name'> | { resource: string; target: string };

export interface RelatedListOptions<Row> {
  /** What narrows the rows (the list's call chooses its route by it); a change goes back to the first page, as does another page size. */
  filter?: object;
  perPage?: number;
  /** Read again every so many milliseconds (or as the rows shown say), or not. */
  refetchInterval?: number | false | ((rows: Row[]) => number | false);
  enabled?: boolean;
  /** How long an answer stays fresh (a list that is costly to read, such as a discovery). */
  staleTime?: number;
}

export interface RelatedListState<Row> {
  rows: Row[] | undefined;
  /** The exact count, when the server gave one. */
  total: number | undefined;
  /** The server's count when capped (`countExact: false`). */
  cappedCount: number | undefined;
  hasNextPage: boolean;
  /** 1-based. */
  page: number;
  perPage: number;
  setPage: (page: number) => void;
  isPending: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => void;
}

const NO_FILTER = {};

/**
 * The rows of a related list for one record, a page at a time, through react-admin's
 * getManyReference: the page goes back to the first whenever the filter changes, and the
 * page shown stays until the next one has come.
 */
export function useRelatedList<Row = RaRecord>(
  source: RelatedSource,
  id: Identifier | null | undefined,
  { filter = NO_FILTER, perPage = RELATED_PER_PAGE, refetchInterval = false, enabled = true, staleTime }: RelatedListOptions<Row> = {},
): RelatedListState<Row> {
  const key = JSON.stringify([filter, perPage]);
  const [at, setAt] = useState({ key, page: 1 });
  // A page belongs to the filter and page size it was chosen under: others start on the first.
  const page = at.key === key ? at.page : 1;
  const setPage = useCallback((next: number) => setAt({ key, page: next }), [key]);
  const resource = 'name' in source ? source.name : source.resource;
  const target = 'name' in source ? 'owner' : source.target;
  const query = useGetManyReference<RaRecord>(
    resource,
    { target, id: id ?? '', pagination: { page, perPage }, sort: SERVER_ORDER, filter },
    {
      enabled: enabled && id !== null && id !== undefined && id !== '',
      placeholderData: keepPreviousData,
      retry: false,
      staleTime,
      refetchInterval:
        typeof refetchInterval === 'function'
          ? (current) => refetchInterval(((current.state.data as { data?: Row[] } | undefined)?.data ?? []) as Row[])
          : refetchInterval,
    },
  );
  const rows = query.data as Row[] | undefined;
  const meta = query.meta as { count?: number; countExact?: boolean } | undefined;
  const exact = query.total !== undefined && query.total !== null;
  const hasNextPage = exact ? page * perPage < query.total! : (query.pageInfo?.hasNextPage ?? (rows?.length ?? 0) >= perPage);
  return {
    rows,
    total: exact ? query.total : undefined,
    cappedCount: exact ? undefined : meta?.count,
    hasNextPage,
    page,
    perPage,
    setPage,
    isPending: query.isPending,
    isFetching: query.isFetching,
    error: query.error,
    refetch: () => void query.refetch(),
  };
}
