import type { Query, QueryClient, QueryKey } from '@tanstack/react-query';
import { use } from 'react';
import type { GetListParams } from 'react-admin';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { defaultSortOf } from '../declaration';
import type { AnyResourceDeclaration } from '../types';

/**
 * A list page's first page, fetched as the user heads for the page (the pointer rests on its
 * menu entry, or presses it): its rows, summary cards and filter choices go into the queries
 * the page reads them from, so that the page can open with them rather than a round trip after
 * it rendered.
 */

/**
 * How long a list's first page, fetched ahead, counts as current: a page opened right after it
 * came shows it without asking again. Anything fetched afterwards is out of date at once, as
 * ever, and so is what a change made in the console marks out of date.
 */
export const FIRST_PAGE_FRESH_MS = 2_000;

/** The queries prepareFirstPage filled. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query's data
const prepared = new WeakSet<Query<any, any, any, any>>();

/** react-query's staleTime for a list page's queries (rows, cards): FIRST_PAGE_FRESH_MS for a first page fetched ahead, else none. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any query's data
export function firstPageFreshness<TQuery extends Query<any, any, any, any>>(query: TQuery): number {
  return prepared.has(query) && query.state.dataUpdateCount <= 1 ? FIRST_PAGE_FRESH_MS : 0;
}

/**
 * How long a list page opening waits for its first page already on its way, keeping the page
 * that was there (the move to another page is a transition): so that it opens with its rows
 * in one go instead of a loading table followed by the rows. Past it, the page opens and shows
 * them when they come.
 */
export const FIRST_PAGE_WAIT_MS = 250;

/** react-admin's list queries: what a page asks for as it first opens, its first page in the default order, unfiltered. */
export function firstPageParams(declaration: AnyResourceDeclaration): Required<Pick<GetListParams, 'pagination' | 'sort' | 'filter'>> {
  const sort = defaultSortOf(declaration);
  return { pagination: { page: 1, perPage: declaration.list?.perPage ?? 10 }, sort: { field: sort.field, order: sort.order }, filter: {} };
}

/** The query react-admin's useGetList reads a list page's first page from. */
export function firstPageKey(declaration: AnyResourceDeclaration) {
  return [declaration.name, 'getList', firstPageParams(declaration)] as const;
}

/** The summary cards' query (ListCards). */
export function cardsKey(resource: string) {
  return [resource, 'cards'] as const;
}

/** The filter choices' query (useFilterProps). */
export function filterPropsKey(resource: string) {
  return [resource, 'filterProps'] as const;
}

/** The filter choices count as current this long (useFilterProps). */
export const FILTER_PROPS_FRESH_MS = 5 * 60_000;

/**
 * Fetches a list page's first page into its queries (for a list the user may read). The calls
 * go out together through the dataProvider's head start, as the page would make them. Nothing
 * is asked again while that first page is on its way or has just come.
 */
export function prepareFirstPage(queryClient: QueryClient, dataProvider: DeclaredDataProvider, declaration: AnyResourceDeclaration): void {
  const resource = declaration.name;
  const cache = queryClient.getQueryCache();
  // Asked for a moment ago (the pointer rested on the entry, then pressed it): nothing more to ask.
  const current = cache.find({ queryKey: firstPageKey(declaration), exact: true });
  if (
    current &&
    (current.state.fetchStatus === 'fetching' || (current.state.data !== undefined && !current.isStaleByTime(FIRST_PAGE_FRESH_MS)))
  )
    return;
  dataProvider.prepareList(resource);
  const params = firstPageParams(declaration);
  const remember = (queryKey: QueryKey) => {
    const query = cache.find({ queryKey, exact: true });
    if (query) prepared.add(query);
  };
  void queryClient.prefetchQuery({
    queryKey: firstPageKey(declaration),
    // react-admin's useGetList: the same answer.
    queryFn: () => dataProvider.getList(resource, params).then(({ data, total, pageInfo, meta }) => ({ data, total, pageInfo, meta })),
    staleTime: FIRST_PAGE_FRESH_MS,
    retry: false,
  });
  remember(firstPageKey(declaration));
  if (declaration.routes.cards) {
    void queryClient.prefetchQuery({
      queryKey: cardsKey(resource),
      queryFn: () => dataProvider.getCards(resource),
      staleTime: FIRST_PAGE_FRESH_MS,
      retry: false,
    });
    remember(cardsKey(resource));
  }
  if (declaration.routes.filterProps) {
    void queryClient.prefetchQuery({
      queryKey: filterPropsKey(resource),
      queryFn: () => dataProvider.getFilterProps(resource),
      staleTime: FILTER_PROPS_FRESH_MS,
      retry: false,
    });
  }
}

const waits = new WeakMap<Query, Promise<void>>();

/**
 * Settles when none of the queries is fetching any more, or after `ms`; one promise per first
 * query, as React's `use` wants the same promise on each render.
 */
function fetchesEnd(queryClient: QueryClient, queries: Query[], ms: number): Promise<void> {
  let wait = waits.get(queries[0]);
  if (!wait) {
    wait = new Promise<void>((resolve) => {
      const done = () => {
        unsubscribe();
        clearTimeout(timer);
        resolve();
      };
      const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
        if (queries.includes(event.query) && queries.every((query) => query.state.fetchStatus !== 'fetching')) done();
      });
      const timer = setTimeout(done, ms);
    });
    waits.set(queries[0], wait);
  }
  return wait;
}

/**
 * The first page of this list (its rows, and its cards) asked for ahead and still on its way:
 * settles when it has come, or after FIRST_PAGE_WAIT_MS; null when nothing of it is on its way.
 */
function firstPageComing(queryClient: QueryClient, declaration: AnyResourceDeclaration): Promise<void> | null {
  const cache = queryClient.getQueryCache();
  const keys = [firstPageKey(declaration), ...(declaration.routes.cards ? [cardsKey(declaration.name)] : [])];
  const coming = keys
    .map((queryKey) => cache.find({ queryKey, exact: true }))
    .filter((query): query is Query => query !== undefined && query.state.data === undefined && query.state.fetchStatus === 'fetching');
  return coming.length > 0 ? fetchesEnd(queryClient, coming, FIRST_PAGE_WAIT_MS) : null;
}

/**
 * Waits (suspends, FIRST_PAGE_WAIT_MS at most) while the first page of this list, asked for
 * ahead, is still on its way: its rows, and its cards.
 */
export function useFirstPageOnItsWay(queryClient: QueryClient, declaration: AnyResourceDeclaration): void {
  const coming = firstPageComing(queryClient, declaration);
  if (coming) use(coming);
}

/**
 * The pace of a move to this list's page (a declared list, whose code is in the console): drawn
 * at once, or, while its first page asked for ahead is on its way, as soon as it comes (the page
 * then opens with its rows in one go, useFirstPageOnItsWay having nothing left to wait for).
 */
export function firstPagePace(queryClient: QueryClient, declaration: AnyResourceDeclaration): 'at-once' | Promise<void> {
  return firstPageComing(queryClient, declaration) ?? 'at-once';
}
