/**
 * How an entity's calls are written down, shared by the console (its dataProvider calls them)
 * and the server (it answers them). A path is a template under /api/v1, as the spec writes it,
 * whose placeholders are filled per call: `{offset}` `{limit}` (paging), `{order}` `{field}`
 * (sort), `{id}` (a record), `{search}` (the search text).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How a body travels: JSON (default), or a form body (FormData), as the spec's form-body calls. */
export type BodyEncoding = 'json' | 'form';

/** A list's order: a field, ascending or descending (an empty field is the server's own order). */
export interface ListSort {
  field: string;
  order: 'ASC' | 'DESC';
}

/** One call; a bare string is a path with the kind's default method. */
export interface RouteSpec {
  path: string;
  method?: HttpMethod;
  encoding?: BodyEncoding;
  /** Fixed fields sent with every call (e.g. `{ isActive: false }` for a one-path activation). */
  body?: Record<string, unknown>;
  /** Put the record id in the body under this name (`PUT /workspace { id, … }`). */
  idField?: string;
  /** Also send `offset` and `limit` in the body (the audit filter, the role search). */
  pagingInBody?: boolean;
}

export type Route = string | RouteSpec;

/** The filter route, and the sort the list starts with (sent in the path when it has `{order}`/`{field}`). */
export interface FilterRoute extends RouteSpec {
  sort: ListSort;
}

/**
 * The calls of one entity. Default methods: list, one, filterProps, cards GET; filter POST;
 * create POST; update PUT; delete DELETE; activate/deactivate PUT; search GET when its path
 * holds `{search}`, else POST with `{ search }`.
 */
export interface ResourceRoutes {
  /** `/things/{offset}/{limit}`; a path without `{offset}`/`{limit}` is an unpaged list (all rows at once). */
  list: Route;
  filter?: FilterRoute;
  filterProps?: Route;
  cards?: Route;
  /** Without it, getOne/getMany read the list and pick the record. */
  one?: Route;
  create?: Route;
  update?: Route;
  delete?: Route;
  activate?: Route;
  deactivate?: Route;
  /** Used instead of the filter route when the search text is the only filter and the sort is the default. */
  search?: Route;
}

export type RouteKind = keyof ResourceRoutes;

/**
 * The lists of an entity that belong to another record, by the name of that record's field
 * (react-admin's `target`): `{ user: '/session/user/{id}?offset={offset}&limit={limit}' }` are a
 * user's sessions. `{id}` is the other record's id; a GET unless the route says otherwise.
 */
export type RelatedRoutes = Record<string, Route>;

const DEFAULT_METHODS: Record<RouteKind, HttpMethod> = {
  list: 'GET',
  filter: 'POST',
  filterProps: 'GET',
  cards: 'GET',
  one: 'GET',
  create: 'POST',
  update: 'PUT',
  delete: 'DELETE',
  activate: 'PUT',
  deactivate: 'PUT',
  search: 'POST',
};

/** A route as a full spec, with the kind's default method. */
export function routeSpec(route: Route, kind: RouteKind): RouteSpec & { method: HttpMethod } {
  const spec = typeof route === 'string' ? { path: route } : route;
  const fallback = kind === 'search' && spec.path.includes('{search}') ? 'GET' : DEFAULT_METHODS[kind];
  return { ...spec, method: spec.method ?? fallback };
}

export function hasPlaceholder(route: Route | undefined, name: string): boolean {
  if (!route) return false;
  return (typeof route === 'string' ? route : route.path).includes(`{${name}}`);
}

/** A list route without `{offset}`/`{limit}` answers every row at once. */
export function isPagedRoute(list: Route): boolean {
  return hasPlaceholder(list, 'offset') || hasPlaceholder(list, 'limit');
}

/** No sort: the order the server answers in. */
export const SERVER_ORDER: ListSort = { field: '', order: 'ASC' };

/** A date range filter sends these two body fields. */
export const DATE_RANGE_SOURCES = ['startDate', 'endDate'] as const;

/** One choice of a select: a value and its text (a translation key or the text itself). */
export interface Choice {
  id: string | number | boolean;
  name: string;
}
