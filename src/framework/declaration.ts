import { DATE_RANGE_SOURCES, hasPlaceholder, isPagedRoute, SERVER_ORDER, type ListSort } from '../../common/contract/routes';
import type { ResourceCalls } from '../../providers/dataProvider';
import type { ResourceTexts } from '../../providers/i18nProvider';
import type { AnyResourceDeclaration, Capabilities, FieldDeclaration, FilterDeclaration } from './types';

/**
 * What the views and providers read from a declaration: plain functions, no React.
 */

export { DATE_RANGE_SOURCES, hasPlaceholder, routeSpec, SERVER_ORDER, type RouteKind } from '../../common/contract/routes';

/** A list route without `{offset}`/`{limit}` answers every row at once. */
export function isPagedList(declaration: AnyResourceDeclaration): boolean {
  return isPagedRoute(declaration.routes.list);
}

/** The sort a list starts with: the filter route's, else the server's own order. */
export function defaultSortOf(declaration: AnyResourceDeclaration): ListSort {
  return declaration.routes.filter?.sort ?? SERVER_ORDER;
}

export function isDefaultSort(declaration: AnyResourceDeclaration, sort: ListSort | undefined): boolean {
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
  // A capability without its route cannot work, whatever the declaration asks. The bulk ones
  // follow their row's (a list that deletes rows deletes a selection) unless the declaration says.
  return {
    ...chosen,
    create: chosen.create && derived.create,
    edit: chosen.edit && derived.edit,
    delete: chosen.delete && derived.delete,
    activate: chosen.activate && activation,
    bulkDelete: (can.bulkDelete ?? chosen.delete) && derived.delete,
    bulkActivate: (can.bulkActivate ?? chosen.activate) && activation,
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

/** `createdAt` → `Created at`: a field's label when its declaration gives none. */
export function defaultLabel(source: string): string {
  const words = source
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A declaration's texts as translations take them: its English field labels are the ones it
 * writes, and for every other field its source in words (`createdAt` → "Created at"), so a
 * declaration names only the labels that say more than the field's name.
 */
export function textsOf(declaration: AnyResourceDeclaration): ResourceTexts {
  const { en, ...others } = declaration.messages;
  const defaults = Object.fromEntries(declaration.fields.map((field) => [field.source, defaultLabel(field.source)]));
  return { name: declaration.name, messages: { ...others, en: { ...en, fields: { ...defaults, ...en.fields } } } };
}

/** What the dataProvider needs to call a declared resource. */
export function callsOf(declaration: AnyResourceDeclaration): ResourceCalls {
  const sources = (form: 'create' | 'edit') => {
    const fields = formFields(declaration, form).map((field) => field.source);
    return fields.length > 0 ? fields : null;
  };
  const defaultSort = defaultSortOf(declaration);
  return {
    name: declaration.name,
    routes: declaration.routes,
    related: declaration.related ?? {},
    filterFields: filterSources(declaration.filters),
    createFields: sources('create'),
    editFields: sources('edit'),
    updateSends: declaration.forms?.edit?.send ?? 'changed',
    activationField: capabilitiesOf(declaration).activate ? String(declaration.activation!.field) : null,
    paged: isPagedList(declaration),
    sortFields: new Set([...declaration.fields.filter((field) => field.sortable).map((field) => String(field.source)), defaultSort.field]),
    defaultSort,
    perPage: declaration.list?.perPage ?? 10,
  };
}
