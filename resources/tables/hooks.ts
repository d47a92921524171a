import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { QualityRuleBody } from '../../common/schemas/quality';
import { dictionaryEdit } from '../../common/schemas/tables';
import { alerts } from '../../providers/alerts';
import { downloadFile } from '../../src/framework/csv';
import { failureText } from '../../src/framework/feedback';
import { relatedListKey } from '../../src/framework/related/declaration';
import { useRelatedList } from '../../src/framework/related/useRelatedList';
import { useDebounced } from '../users/hooks';
import {
  columnsKey,
  deleteRule,
  downloadDictionary,
  getColumns,
  refreshColumns,
  runChecks,
  saveEntry,
  saveRule,
  uploadDictionary,
  uploadProblems,
} from './api';
import { dictionaryList, rulesList } from './related';
import type { ColumnsRefresh, DictionaryEntry, EntryEdit, QualityRule, QualityRun, UploadResult } from './types';

/** A search waits for the typing to pause: one call per pause, not per key. */
export const SEARCH_DELAY_MS = 300;

/** Refreshes what shows a table's state after a change: its record and the list's counts. */
function useTableChanged(tableId: string) {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: ['tables', 'getOne'] });
    await queryClient.invalidateQueries({ queryKey: ['tables', 'getList'] });
    await queryClient.invalidateQueries({ queryKey: ['tables', 'cards'] });
    await queryClient.invalidateQueries({ queryKey: relatedListKey(dictionaryList) });
    await queryClient.invalidateQueries({ queryKey: columnsKey(tableId) });
  }, [queryClient, tableId]);
}

// ---- Dictionary ------------------------------------------------------------------------------

/** The dictionary a page at a time, searched as the user types. */
export function useDictionary(tableId: string) {
  const [search, setSearch] = useState('');
  const searched = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const list = useRelatedList<DictionaryEntry>(dictionaryList, tableId, { filter: { search: searched } });
  return { search, setSearch, list };
}

export function useColumns(tableId: string) {
  return useQuery({ queryKey: columnsKey(tableId), queryFn: ({ signal }) => getColumns(tableId, signal), staleTime: 60_000, retry: false });
}

const EDITABLE = ['description', 'businessName', 'sensitivity', 'owner'] as const;
export type EditableField = (typeof EDITABLE)[number];

/** The fields of an entry that a draft changed (a blank text is the same as none). */
export function changedEntryFields(entry: DictionaryEntry, draft: EntryEdit): EntryEdit {
  const changes: EntryEdit = {};
  for (const field of EDITABLE) {
    if (!(field in draft)) continue;
    const before = entry[field] ?? '';
    const after = draft[field] ?? '';
    if (before !== after) (changes as Record<string, unknown>)[field] = after;
  }
  return changes;
}

export type RowSave = { state: 'idle' } | { state: 'saving' } | { state: 'saved' } | { state: 'error'; message: string };

/**
 * One entry edited in its row: a draft over the entry, checked by the server's own rules, saved
 * with `PUT /table/{id}` naming the column and only the fields that changed; the row says
 * whether it is saving, saved or failed.
 */
export function useEntryEditor(tableId: string, entry: DictionaryEntry) {
  const translate = useTranslate();
  const changed = useTableChanged(tableId);
  const [draft, setDraft] = useState<EntryEdit>({});
  const [save, setSave] = useState<RowSave>({ state: 'idle' });
  const changes = useMemo(() => changedEntryFields(entry, draft), [entry, draft]);
  const dirty = Object.keys(changes).length > 0;

  // A reloaded entry (after this save or another) is the new starting point.
  useEffect(() => setDraft({}), [entry]);

  const edit = (field: EditableField, value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (save.state !== 'saving') setSave({ state: 'idle' });
  };

  const submit = async () => {
    if (!dirty) return;
    const checked = dictionaryEdit.safeParse({ name: entry.name, ...changes });
    if (!checked.success) {
      const [issue] = checked.error.issues;
      setSave({ state: 'error', message: `${issue.path.join('.')}: ${issue.message}` });
      return;
    }
    const { name, ...checkedChanges } = checked.data;
    setSave({ state: 'saving' });
    alerts.loading();
    try {
      alerts.success((await saveEntry(tableId, name, checkedChanges)) ?? translate('app.form.saved'));
      setSave({ state: 'saved' });
      await changed();
    } catch (error) {
      const message = failureText(error);
      setSave({ state: 'error', message });
      alerts.error(message);
    }
  };

  const value = (field: EditableField): string => String((field in draft ? draft[field] : entry[field]) ?? '');
  return { value, edit, submit, dirty, save };
}

export type FileResult =
  | { kind: 'uploaded'; result: UploadResult }
  | { kind: 'refused'; problems: string[] }
  | { kind: 'refreshed'; result: ColumnsRefresh }
  | null;

/**
 * The dictionary as a file: download it (the template to fill), upload one (a refusal lists its
 * problems line by line and changes nothing), and read the columns from the source again.
 */
export function useDictionaryFiles(tableId: string, tableName: string) {
  const translate = useTranslate();
  const changed = useTableChanged(tableId);
  const [busy, setBusy] = useState<'download' | 'upload' | 'refresh' | null>(null);
  const [result, setResult] = useState<FileResult>(null);

  const run = async (kind: 'download' | 'upload' | 'refresh', work: () => Promise<void>) => {
    setBusy(kind);
    alerts.loading();
    try {
      await work();
    } finally {
      setBusy(null);
    }
  };

  const download = () =>
    run('download', async () => {
      try {
        const { text, filename } = await downloadDictionary(tableId);
        downloadFile(text, filename ?? `${tableName}-dictionary.csv`);
        alerts.success(translate('resources.tables.dictionary.downloaded'));
      } catch (error) {
        alerts.error(failureText(error));
      }
    });

  const upload = (file: File) =>
    run('upload', async () => {
      setResult(null);
      try {
        const { message, data } = await uploadDictionary(tableId, file);
        setResult({ kind: 'uploaded', result: data });
        alerts.success(message ?? translate('resources.tables.dictionary.uploaded', { updated: data.updated, unchanged: data.unchanged }));
        await changed();
      } catch (error) {
        const message = failureText(error);
        setResult({ kind: 'refused', problems: uploadProblems(message) });
        alerts.error(message);
      }
    });

  const refresh = () =>
    run('refresh', async () => {
      setResult(null);
      try {
        const { message, data } = await refreshColumns(tableId);
        setResult({ kind: 'refreshed', result: data });
        alerts.success(message ?? translate('resources.tables.dictionary.refreshed'));
        await changed();
      } catch (error) {
        alerts.error(failureText(error));
      }
    });

  return { busy, result, download, upload, refresh, dismiss: () => setResult(null) };
}

// ---- Data quality ----------------------------------------------------------------------------

/** The table's rules a page at a time: searched as the user types, filtered by kind. */
export function useRules(tableId: string) {
  const [search, setSearch] = useState('');
  const [functionType, setFunctionType] = useState('');
  const [functionName, setFunctionName] = useState('');
  const searched = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const filter = useMemo(() => ({ search: searched, functionType, functionName }), [searched, functionType, functionName]);
  const list = useRelatedList<QualityRule>(rulesList, tableId, { filter });
  return { search, setSearch, functionType, setFunctionType, functionName, setFunctionName, list };
}

/** A server refusal that names a field (`params.min: must not be above max`): the field and its message. */
export function namedProblem(message: string): { field: string; message: string } | null {
  const match = /^([\w.]+): (.+)$/s.exec(message);
  return match ? { field: match[1], message: match[2] } : null;
}

/** Saving and deleting rules, with the server's message as the alert; the rules and the table reload after. */
export function useRuleActions(tableId: string) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const changed = useTableChanged(tableId);
  const reload = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: relatedListKey(rulesList) });
    await changed();
  }, [queryClient, changed]);

  /** Resolves to null when saved, else to the server's message. */
  const save = async (body: QualityRuleBody): Promise<string | null> => {
    alerts.loading();
    try {
      const { message } = await saveRule(tableId, body);
      alerts.success(message ?? translate('app.form.saved'));
      await reload();
      return null;
    } catch (error) {
      const message = failureText(error);
      alerts.error(message);
      return message;
    }
  };

  const remove = async (rule: QualityRule) => {
    alerts.loading();
    try {
      alerts.success((await deleteRule(rule.id)) ?? translate('app.list.deleted'));
    } catch (error) {
      alerts.error(failureText(error));
    }
    await reload();
  };

  return { save, remove };
}

/** "Run checks now": busy while the run goes, then the run's results; the rules show their new last results. */
export function useRunChecks(tableId: string) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const changed = useTableChanged(tableId);
  const [running, setRunning] = useState(false);
  const [run, setRun] = useState<QualityRun | null>(null);

  const start = async () => {
    setRunning(true);
    alerts.loading();
    try {
      const { message, data } = await runChecks(tableId);
      setRun(data);
      if (data.status === 'error') alerts.error(data.error ?? message ?? translate('resources.tables.quality.run_error'));
      else alerts.success(message ?? translate('resources.tables.quality.run_done'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
    await queryClient.invalidateQueries({ queryKey: relatedListKey(rulesList) });
    await changed();
  };

  return { running, run, start, close: () => setRun(null) };
}
