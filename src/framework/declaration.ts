import type { SortPayload } from 'react-admin';
import type {
  AnyResourceDeclaration,
  Capabilities,
  FieldDeclaration,
  FilterDeclaration,
  HttpMethod,
  ResourceDeclaration,
  ResourceMessages,
  Route,
  RouteSpec,
} from './types';

/**
 * What the views and providers read from a declaration: plain functions, no React, so the
 * dataProvider and the authProvider can use them too.
 */

export type RouteKind = Exclude<keyof ResourceDeclaration['routes'], never>;

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
export function isPagedList(declaration: AnyResourceDeclaration): boolean {
  return hasPlaceholder(declaration.routes.list, 'offset') || hasPlaceholder(declaration.routes.list, 'limit');
}

/** No sort: the order the server answers in. */
export const SERVER_ORDER: SortPayload = { field: '', order: 'ASC' };

/** The sort a list starts with: the filter route's, else the server's own order. */
export function defaultSortOf(declaration: AnyResourceDeclaration): SortPayload {
  return declaration.routes.filter?.sort ?? SERVER_ORDER;
}

export function isDefaultSort(declaration: AnyResourceDeclaration, sort: SortPayload | undefined): boolean {
  if (!sort?.field) return true;
  const fallback = defaultSortOf(declaration);
  return sort.field === fallback.field && sort.order === fallback.order;
}

/** Columns sort when the filter path carries the sort, or when the list is sorted here (unpaged). */
export function canSort(declaration: AnyResourceDeclaration): boolean {
  return hasPlaceholder(declaration.routes.filter, 'field') || !isPagedList(declaration);
}

export function capabilitiesOf(declaration: AnyResourceDeclaration): Capabilities {
  const { routes, can = {} } = declaration;
  const activation = Boolean(declaration.activation && routes.activate && routes.deactivate);
  const derived: Capabilities = {
    create: Boolean(routes.create),
    edit: Boolean(routes.update),
    show: true,
    delete: Boolean(routes.delete),
    activate: activation,
    export: true,
    bulkDelete: false,
    bulkActivate: false,
  };
  const chosen = { ...derived, ...can };
  // A capability without its route cannot work, whatever the declaration asks.
  return {
    ...chosen,
    create: chosen.create && derived.create,
    edit: chosen.edit && derived.edit,
    delete: chosen.delete && derived.delete,
    activate: chosen.activate && activation,
    bulkDelete: chosen.bulkDelete && derived.delete,
    bulkActivate: chosen.bulkActivate && activation,
  };
}

export function accessNameOf(declaration: AnyResourceDeclaration): string {
  return declaration.access ?? declaration.name;
}

/** The list's columns, in declaration order (shown and hidden ones). */
export function listFields(declaration: AnyResourceDeclaration): FieldDeclaration[] {
  return declaration.fields.filter((field) => (field.list ?? 'shown') !== false) as FieldDeclaration[];
}

/** Columns hidden until the user (or the tenant default) shows them. */
export function defaultHiddenColumns(declaration: AnyResourceDeclaration): string[] {
  return listFields(declaration)
    .filter((field) => field.list === 'hidden')
    .map((field) => field.source);
}

export const DATE_RANGE_SOURCES = ['startDate', 'endDate'] as const;

/** The body fields of the filter route. */
export function filterSources(filters: readonly FilterDeclaration[] | undefined): string[] {
  return (filters ?? []).flatMap((filter) => (filter.type === 'dateRange' ? [...DATE_RANGE_SOURCES] : [filter.source]));
}

export function formFields(declaration: AnyResourceDeclaration, form: 'create' | 'edit'): FieldDeclaration[] {
  return declaration.fields.filter((field) => field[form] === true) as FieldDeclaration[];
}

export function showFields(declaration: AnyResourceDeclaration): FieldDeclaration[] {
  return declaration.fields.filter((field) => field.show !== false) as FieldDeclaration[];
}

/** Where a resource's column choices live: react-admin's DataTable key, and the server's list key. */
export function storeKeyOf(resource: string): string {
  return `${resource}.datatable`;
}

export function listKeyOf(resource: string): string {
  return resource;
}

export function fieldLabelKey(resource: string, field: Pick<FieldDeclaration, 'source' | 'label'>): string {
  return field.label ?? `resources.${resource}.fields.${field.source}`;
}

/** Every declaration's texts, as translation messages per locale (`resources.<name>.…`). */
export function declarationMessages(
  declarations: readonly AnyResourceDeclaration[],
): Record<string, { resources: Record<string, ResourceMessages> }> {
  const byLocale: Record<string, { resources: Record<string, ResourceMessages> }> = {};
  for (const declaration of declarations) {
    for (const [locale, messages] of Object.entries(declaration.messages)) {
      (byLocale[locale] ??= { resources: {} }).resources[declaration.name] = messages;
    }
  }
  return byLocale;
}
