import type { Store } from 'react-admin';
import type { ColumnChoice, ColumnChoices, ConsoleMethods } from '../../../providers/dataProvider';
import { ApiError } from '../../../providers/http';
import { defaultHiddenColumns, listFields, listKeyOf, storeKeyOf } from '../declaration';
import type { AnyResourceDeclaration } from '../types';

/**
 * Column choices in react-admin's Store. react-admin's DataTable reads two keys: `<storeKey>`
 * (hidden columns) and `<storeKey>_columnRanks` (column order as child indexes). Next to them
 * the console keeps the tenant's default and the choice last agreed with the server, so a
 * change the user makes can be told from one the server sent.
 */
export const COLUMN_CHOICES_OFFLINE_KEY = 'columns.offline';

export function columnStoreKeys(resource: string) {
  const storeKey = storeKeyOf(resource);
  return {
    hidden: storeKey,
    ranks: `${storeKey}_columnRanks`,
    tenant: `${storeKey}.tenantDefault`,
    synced: `${storeKey}.synced`,
  };
}

/** The declaration's column sources, in the DataTable's child order. */
export function columnSources(declaration: AnyResourceDeclaration): string[] {
  return listFields(declaration).map((field) => field.source);
}

/** The server's order (sources) as react-admin's ranks (child indexes); columns it omits keep their place after. */
export function ranksFromOrder(sources: readonly string[], order: readonly string[] | null | undefined): number[] | undefined {
  if (!order || order.length === 0) return undefined;
  const ranks = order
    .map((source) => sources.indexOf(source))
    .filter((index, position, all) => index >= 0 && all.indexOf(index) === position);
  sources.forEach((_, index) => {
    if (!ranks.includes(index)) ranks.push(index);
  });
  return isIdentity(ranks) ? undefined : ranks;
}

/** react-admin's ranks as the server's order; null when the columns are in declaration order. */
export function orderFromRanks(sources: readonly string[], ranks: readonly number[] | null | undefined): string[] | null {
  if (!ranks || ranks.length === 0) return null;
  const padded = [...ranks];
  sources.forEach((_, index) => {
    if (!padded.includes(index)) padded.push(index);
  });
  const columnRanks = padded.filter((index) => index >= 0 && index < sources.length);
  return isIdentity(columnRanks) ? null : columnRanks.map((index) => sources[index]);
}

function isIdentity(ranks: readonly number[]): boolean {
  return ranks.every((rank, index) => rank === index);
}

/** A choice as react-admin would show it: the order complete, or null for the declaration's. */
export function normaliseChoice(sources: readonly string[], choice: ColumnChoice): ColumnChoice {
  return { hidden: [...choice.hidden], order: orderFromRanks(sources, ranksFromOrder(sources, choice.order)) };
}

/** Two (normalised) choices show the same columns in the same order. */
export function sameChoice(a: ColumnChoice, b: ColumnChoice): boolean {
  const hidden = (choice: ColumnChoice) => JSON.stringify([...new Set(choice.hidden)].sort());
  return hidden(a) === hidden(b) && JSON.stringify(a.order ?? null) === JSON.stringify(b.order ?? null);
}

export function declarationDefault(declaration: AnyResourceDeclaration): ColumnChoice {
  return { hidden: defaultHiddenColumns(declaration), order: null };
}

/** Shows a choice (or, for null, the declaration's defaults) and records it as agreed with the server. */
export function applyChoice(store: Store, declaration: AnyResourceDeclaration, choice: ColumnChoice | null): void {
  const keys = columnStoreKeys(declaration.name);
  if (choice) {
    const sources = columnSources(declaration);
    store.setItem(keys.synced, normaliseChoice(sources, choice));
    store.setItem(keys.hidden, [...choice.hidden]);
    const ranks = ranksFromOrder(sources, choice.order);
    if (ranks) store.setItem(keys.ranks, ranks);
    else store.removeItem(keys.ranks);
  } else {
    store.removeItem(keys.synced);
    store.removeItem(keys.hidden);
    store.removeItem(keys.ranks);
  }
}

export function setTenantDefault(store: Store, declaration: AnyResourceDeclaration, choice: ColumnChoice | null): void {
  const key = columnStoreKeys(declaration.name).tenant;
  if (choice) store.setItem(key, normaliseChoice(columnSources(declaration), choice));
  else store.removeItem(key);
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

/**
 * At the start of a signed-in session: every list's columns from the server into the Store,
 * the user's own choice, else the tenant default, else the declaration's. A server without
 * these routes leaves the console working on its local Store.
 */
export async function loadColumnChoices(
  store: Store,
  declarations: readonly AnyResourceDeclaration[],
  methods: Pick<ConsoleMethods, 'getColumnChoices'>,
): Promise<void> {
  let choices: ColumnChoices;
  try {
    choices = await methods.getColumnChoices();
    store.removeItem(COLUMN_CHOICES_OFFLINE_KEY);
  } catch (error) {
    if (isNotFound(error)) store.setItem(COLUMN_CHOICES_OFFLINE_KEY, true);
    return;
  }
  for (const declaration of declarations) {
    const entry = choices[listKeyOf(declaration.name)];
    setTenantDefault(store, declaration, entry?.tenant ?? null);
    applyChoice(store, declaration, entry?.user ?? entry?.tenant ?? null);
  }
}
