import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useDataProvider, useStore, useStoreContext, useTranslate } from 'react-admin';
import { alerts } from '../../../providers/alerts';
import type { ColumnChoice, ConsoleDataProvider } from '../../../providers/dataProvider';
import { listKeyOf } from '../declaration';
import { failureText } from '../feedback';
import type { AnyResourceDeclaration } from '../types';
import {
  applyChoice,
  COLUMN_CHOICES_OFFLINE_KEY,
  columnSources,
  columnStoreKeys,
  declarationDefault,
  isNotFound,
  orderFromRanks,
  sameChoice,
  setTenantDefault,
} from './columnChoices';

/** A burst of toggles and moves is saved once. */
export const COLUMN_SAVE_DELAY_MS = 800;

export interface ColumnChoicesActions {
  /** What the list shows now. */
  current: ColumnChoice;
  /** Admins: make the current columns the company's default (`PUT … scope tenant`). */
  saveAsTenantDefault(): Promise<void>;
  /** Drop the user's own choice (`DELETE … scope user`): back to the company default. */
  resetToTenantDefault(): Promise<void>;
}

/**
 * Keeps a list's column choice in step with the server: a change the user makes in the
 * columns menu is saved as their own choice (debounced; saved at once if they leave first).
 */
export function useColumnChoices(declaration: AnyResourceDeclaration): ColumnChoicesActions {
  const keys = columnStoreKeys(declaration.name);
  const listKey = listKeyOf(declaration.name);
  const store = useStoreContext();
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const defaults = useMemo(() => declarationDefault(declaration), [declaration]);
  const sources = useMemo(() => columnSources(declaration), [declaration]);
  const [hidden] = useStore<string[]>(keys.hidden, defaults.hidden);
  const [ranks] = useStore<number[] | undefined>(keys.ranks);
  const [synced] = useStore<ColumnChoice | undefined>(keys.synced);
  const [tenant] = useStore<ColumnChoice | undefined>(keys.tenant);
  const [offline, setOffline] = useStore<boolean>(COLUMN_CHOICES_OFFLINE_KEY, false);

  const current = useMemo<ColumnChoice>(() => ({ hidden, order: orderFromRanks(sources, ranks) }), [hidden, ranks, sources]);
  const baseline = synced ?? tenant ?? defaults;
  const unsaved = !offline && !sameChoice(current, baseline);

  const saveOwn = useCallback(
    async (choice: ColumnChoice) => {
      try {
        await dataProvider.saveColumnChoice(listKey, 'user', choice);
        store.setItem(keys.synced, choice);
      } catch (error) {
        if (isNotFound(error)) setOffline(true);
        else alerts.error(failureText(error));
      }
    },
    [dataProvider, listKey, store, keys.synced, setOffline],
  );

  const pending = useRef<ColumnChoice | null>(null);
  const currentKey = JSON.stringify(current);
  useEffect(() => {
    if (!unsaved) {
      pending.current = null;
      return;
    }
    const choice = JSON.parse(currentKey) as ColumnChoice;
    pending.current = choice;
    const timer = setTimeout(() => {
      pending.current = null;
      void saveOwn(choice);
    }, COLUMN_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [unsaved, currentKey, saveOwn]);

  // Leaving the list before the delay ran out still saves the change.
  const flush = useRef(saveOwn);
  flush.current = saveOwn;
  useEffect(
    () => () => {
      if (pending.current) void flush.current(pending.current);
    },
    [],
  );

  const saveAsTenantDefault = useCallback(async () => {
    alerts.loading();
    try {
      const message = await dataProvider.saveColumnChoice(listKey, 'tenant', current);
      setTenantDefault(store, declaration, current);
      alerts.success(message ?? translate('app.list.columns_saved_tenant'));
    } catch (error) {
      alerts.error(failureText(error));
    }
  }, [dataProvider, listKey, current, store, declaration, translate]);

  const resetToTenantDefault = useCallback(async () => {
    let message: string | undefined;
    if (!offline) {
      try {
        message = await dataProvider.deleteColumnChoice(listKey, 'user');
      } catch (error) {
        if (!isNotFound(error)) {
          alerts.error(failureText(error));
          return;
        }
        setOffline(true);
      }
    }
    pending.current = null;
    applyChoice(store, declaration, tenant ?? null);
    alerts.success(message ?? translate('app.list.columns_reset_done'));
  }, [offline, dataProvider, listKey, store, declaration, tenant, translate, setOffline]);

  return { current, saveAsTenantDefault, resetToTenantDefault };
}
