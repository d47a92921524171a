import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslate } from 'react-admin';
import type { QualityRuleBody } from '../../common/schemas/quality';
import { dictionaryEdit, isWatermarkType } from '../../common/schemas/tables';
import { alerts } from '../../providers/alerts';
import { ApiError } from '../../providers/http';
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
  getQualityRun,
  getQualityRuns,
  qualityRunsKey,
  refreshColumns,
  runChecks,
  saveEntry,
  saveRule,
  saveWatermarkColumn,
  uploadDictionary,
  uploadProblems,
} from './api';
import { dictionaryList, rulesList } from './related';
import type { ColumnsRefresh, DictionaryEntry, EntryEdit, QualityRule, QualityRun, UploadResult } from './types';

/**
 * A failed read that an action of the page depends on (the endpoints a table or a copy task is
 * picked from, a repository's files): besides saying so in place, it is the error alert of
 * spec section 8, once per failure.
 */
export function useFailureAlert(error: unknown) {
  useEffect(() => {
    if (error) alerts.error(failureText(error));
  }, [error]);
}

/** A search waits for the typing to pause: one call per pause, not per key. */
export const SEARCH_DELAY_MS = 300;

/** Refreshes what shows a table's state after a change: its record and the list's counts. */
export function useTableChanged(tableId: string) {
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

/** An entry being edited: the entry as it was read, and what the user changed of it. */
interface EntryDraft {
  entry: DictionaryEntry;
  draft: EntryEdit;
}

/**
 * The dictionary's edits, row by row: a draft over each entry edited (kept across pages and
 * searches until it is saved), checked by the server's own rules, saved with `PUT /table/{id}`
 * naming the column and only the fields that changed; each row says whether it is saving, saved
 * or failed. "Save all" saves every edited row, one call per row, and leaves the rows that failed
 * with their edits and the server's message.
 */
export function useDictionaryEdits(tableId: string) {
  const translate = useTranslate();
  const changed = useTableChanged(tableId);
  const [drafts, setDrafts] = useState<Record<string, EntryDraft>>({});
  const [saves, setSaves] = useState<Record<string, RowSave>>({});
  const [savingAll, setSavingAll] = useState(false);

  const changesOf = useCallback(
    (name: string): EntryEdit => {
      const held = drafts[name];
      return held ? changedEntryFields(held.entry, held.draft) : {};
    },
    [drafts],
  );
  const edited = useMemo(() => Object.keys(drafts).filter((name) => Object.keys(changesOf(name)).length > 0), [drafts, changesOf]);

  const setSave = (name: string, save: RowSave) => setSaves((current) => ({ ...current, [name]: save }));

  const edit = (entry: DictionaryEntry, field: EditableField, value: string) => {
    setDrafts((current) => ({
      ...current,
      [entry.name]: { entry: current[entry.name]?.entry ?? entry, draft: { ...current[entry.name]?.draft, [field]: value } },
    }));
    setSaves((current) => (current[entry.name]?.state === 'saving' ? current : { ...current, [entry.name]: { state: 'idle' } }));
  };

  const value = (entry: DictionaryEntry, field: EditableField): string => {
    const draft = drafts[entry.name]?.draft;
    return String((draft && field in draft ? draft[field] : entry[field]) ?? '');
  };

  /** Saves one row; the server's message when it was saved, else null (the row says why). */
  const saveRow = async (name: string): Promise<{ ok: true; message?: string } | { ok: false; message: string }> => {
    const checked = dictionaryEdit.safeParse({ name, ...changesOf(name) });
    if (!checked.success) {
      const [issue] = checked.error.issues;
      const message = `${issue.path.join('.')}: ${issue.message}`;
      setSave(name, { state: 'error', message });
      return { ok: false, message };
    }
    const { name: column, ...checkedChanges } = checked.data;
    setSave(name, { state: 'saving' });
    try {
      const message = await saveEntry(tableId, column, checkedChanges);
      // What was saved is the row's new starting point (its inputs keep showing it while the page reloads).
      setDrafts((current) =>
        current[name] ? { ...current, [name]: { ...current[name], entry: { ...current[name].entry, ...checkedChanges } } } : current,
      );
      setSave(name, { state: 'saved' });
      return { ok: true, message };
    } catch (error) {
      const message = failureText(error);
      setSave(name, { state: 'error', message });
      return { ok: false, message };
    }
  };

  /** The row's own Save. */
  const submit = async (entry: DictionaryEntry) => {
    if (Object.keys(changesOf(entry.name)).length === 0) return;
    alerts.loading();
    const saved = await saveRow(entry.name);
    if (saved.ok) {
      alerts.success(saved.message ?? translate('app.form.saved'));
      await changed();
    } else alerts.error(saved.message);
  };

  /** Every edited row, one after the other; a summary says which failed. */
  const saveAll = async () => {
    const names = [...edited];
    if (names.length === 0) return;
    setSavingAll(true);
    alerts.loading();
    const failed: string[] = [];
    try {
      for (const name of names) {
        if (!(await saveRow(name)).ok) failed.push(name);
      }
    } finally {
      setSavingAll(false);
    }
    if (failed.length === 0) alerts.success(translate('resources.tables.dictionary.saved_all', { smart_count: names.length }));
    else
      alerts.error(
        translate('resources.tables.dictionary.save_all_failed', {
          smart_count: failed.length,
          total: names.length,
          names: failed.join(', '),
        }),
      );
    if (failed.length < names.length) await changed();
  };

  /** One row's editor, as its inputs use it. */
  const rowOf = (entry: DictionaryEntry) => ({
    value: (field: EditableField) => value(entry, field),
    edit: (field: EditableField, text: string) => edit(entry, field, text),
    submit: () => submit(entry),
    dirty: Object.keys(changesOf(entry.name)).length > 0,
    save: saves[entry.name] ?? ({ state: 'idle' } as RowSave),
  });

  return { rowOf, edited, saveAll, savingAll };
}

export type DictionaryEdits = ReturnType<typeof useDictionaryEdits>;

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

  /** Runs the checks; `full` reads every row of a table with a watermark column ("Full check"). */
  const start = async (full = false) => {
    setRunning(true);
    alerts.loading();
    try {
      const { message, data } = await runChecks(tableId, full);
      setRun(data);
      if (data.status === 'error') alerts.error(data.error ?? message ?? translate('resources.tables.quality.run_error'));
      else alerts.success(message ?? translate('resources.tables.quality.run_done'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
    await queryClient.invalidateQueries({ queryKey: relatedListKey(rulesList) });
    await queryClient.invalidateQueries({ queryKey: qualityRunsKey(tableId) });
    await changed();
  };

  return { running, run, start, show: setRun, close: () => setRun(null) };
}

/** Runs shown a page at a time. */
export const RUNS_PAGE = 5;

/**
 * The table's kept runs, newest first, a page at a time; opening one reads its results. A server
 * without the call (404) has no history to show: `available` is then false.
 */
export function useRunHistory(tableId: string, onOpen: (run: QualityRun) => void) {
  const [page, setPage] = useState(0);
  const [opening, setOpening] = useState<string | null>(null);
  const runs = useQuery({
    queryKey: [...qualityRunsKey(tableId), page],
    queryFn: ({ signal }) => getQualityRuns(tableId, page * RUNS_PAGE, RUNS_PAGE, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const open = async (runId: string) => {
    setOpening(runId);
    try {
      onOpen(await getQualityRun(runId));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setOpening(null);
    }
  };
  const available = !(runs.error instanceof ApiError && runs.error.status === 404);
  return { runs, page, setPage, open, opening, available };
}

/**
 * The table's watermark column: the columns that can be one (a timestamp, a date, a growing
 * number of the dictionary), and saving the choice (null: none).
 */
export function useWatermarkColumn(tableId: string) {
  const columns = useColumns(tableId);
  const changed = useTableChanged(tableId);
  const [saving, setSaving] = useState(false);
  const candidates = useMemo(
    () => (columns.data ?? []).filter((column) => column.present && isWatermarkType(column.dataType)),
    [columns.data],
  );
  const save = async (column: string | null) => {
    setSaving(true);
    try {
      const message = await saveWatermarkColumn(tableId, column);
      if (message) alerts.success(message);
      await changed();
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };
  return { candidates, loading: columns.isLoading, saving, save };
}
