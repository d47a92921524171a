import type { Route } from '../../../common/contract/routes';

/**
 * Lists that belong to a record without being a resource of their own — a table's dictionary,
 * a connection's pairs, a run's results — declared by their calls and listed through
 * react-admin's getManyReference like any related list.
 */

/** One call of a related list: its route and what fills it. */
export interface RelatedCall {
  route: Route;
  /** The text for the route's `{search}`. */
  search?: string;
  /** The body of a POST (a filter's filled fields). */
  body?: Record<string, unknown>;
}

export interface RelatedListDeclaration<Filter extends object = Record<string, unknown>> {
  /** react-admin's resource name of the list: its queries are keyed by it. */
  name: string;
  /**
   * The call for the record whose rows they are (`{id}`): one route (a contract's related
   * route), or a call chosen by the filter in force (a search route, a filter route).
   * A route without `{offset}`/`{limit}` (nor paging in its body) answers every row at once.
   */
  call: Route | ((filter: Filter) => RelatedCall);
  /** The field that names a row when the rows have no `id` of their own (a dictionary's column name). */
  idField?: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRelatedList = RelatedListDeclaration<any>;

/** Declares a related list, typed by its filter. */
export function defineRelatedList<Filter extends object = Record<string, unknown>>(
  declaration: RelatedListDeclaration<Filter>,
): RelatedListDeclaration<Filter> {
  return declaration;
}

/** The query key every page of a list starts with: what a change invalidates. */
export function relatedListKey(list: Pick<AnyRelatedList, 'name'>): readonly unknown[] {
  return [list.name, 'getManyReference'];
}
