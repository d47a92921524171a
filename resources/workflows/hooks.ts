import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useCreatePath, useRedirect, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../providers/alerts';
import { failureText } from '../../src/framework/feedback';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { checkWorkflow, getDestinationRows, runWorkflow } from './api';
import { BODY_FIELDS, bodySourceKind, formPathOf, storedBodyOf } from './form';
import type { Workflow, WorkflowCheck } from './types';

/** An append copy whose destination table already holds rows: a run may repeat them, so the console asks first. */
export interface AppendWarning {
  table: string;
  rows: number;
  more: boolean;
}

/** The first append copy of the workflow whose destination holds rows; none when no copy appends, or the count cannot be read. */
async function appendWarningOf(workflow: Pick<Workflow, 'id' | 'tasks'>): Promise<AppendWarning | undefined> {
  const appends = (workflow.tasks ?? []).some((task) => task.type === 'copy' && task.to.mode === 'append');
  if (!appends) return undefined;
  try {
    const held = (await getDestinationRows(workflow.id)).find((table) => (table.rows ?? 0) > 0);
    return held ? { table: held.table, rows: held.rows ?? 0, more: held.more } : undefined;
  } catch {
    // The question is a courtesy: a destination that cannot count does not stop the run.
    return undefined;
  }
}

/**
 * "Run": queues a run of the workflow (`POST /workflow/run/{jobId}`) and goes to the new run's
 * page, where it can be followed; the server's message is the alert there. A workflow with an
 * append copy into a table that already holds rows is first held in `warning`, until `confirm`
 * runs it anyway or `dismiss` lets it be.
 */
export function useRunWorkflow(workflow: Pick<Workflow, 'id' | 'jobId' | 'tasks'> | undefined) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const [running, setRunning] = useState(false);
  const [warning, setWarning] = useState<AppendWarning | undefined>(undefined);
  const queue = async (fullCopy = false) => {
    if (!workflow) return;
    setWarning(undefined);
    setRunning(true);
    alerts.loading();
    try {
      const { message, data } = await runWorkflow(String(workflow.jobId ?? workflow.id), fullCopy);
      const text = message ?? translate('resources.workflows.run.queued');
      await queryClient.invalidateQueries({ queryKey: ['workflows'] });
      await queryClient.invalidateQueries({ queryKey: ['job-runs'] });
      if (data?.id) {
        alerts.success(text, { keepFor: createPath({ resource: 'job-runs', type: 'show', id: data.id }) });
        redirect('show', 'job-runs', data.id);
      } else {
        alerts.success(text);
      }
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setRunning(false);
    }
  };
  const run = async () => {
    if (!workflow) return;
    setRunning(true);
    const held = await appendWarningOf(workflow);
    setRunning(false);
    if (held) setWarning(held);
    else await queue();
  };
  return { running, run, warning, confirm: () => queue(), dismiss: () => setWarning(undefined), runFullCopy: () => queue(true) };
}

/** The copy tasks of a workflow that read incrementally (by a watermark column), by name, and which of them append. */
export function incrementalCopies(workflow: Pick<Workflow, 'tasks'> | undefined): { names: string[]; appending: string[] } {
  const copies = (workflow?.tasks ?? []).filter(
    (task): task is Extract<Workflow['tasks'][number], { type: 'copy' }> => task.type === 'copy' && Boolean(task.watermark),
  );
  return { names: copies.map((task) => task.name), appending: copies.filter((task) => task.to.mode === 'append').map((task) => task.name) };
}

export type CheckState =
  { state: 'idle' } | { state: 'checking' } | { state: 'done'; result: WorkflowCheck } | { state: 'failed'; message: string };

/** "Check": asks the server whether what the workflow names answers now (`POST /workflow/configure/{id}`). */
export function useWorkflowCheck(workflowId: string | undefined) {
  const translate = useTranslate();
  const [state, setState] = useState<CheckState>({ state: 'idle' });
  const run = async () => {
    if (!workflowId) return;
    setState({ state: 'checking' });
    alerts.loading();
    try {
      const { message, data } = await checkWorkflow(workflowId);
      setState({ state: 'done', result: data });
      if (data.ok) alerts.success(message ?? translate('resources.workflows.check.ok'));
      else alerts.error(message ?? translate('resources.workflows.check.problems', { smart_count: data.problems.length }));
    } catch (error) {
      const message = failureText(error);
      setState({ state: 'failed', message });
      alerts.error(message);
    }
  };
  return { state, run, close: () => setState({ state: 'idle' }) };
}

/**
 * Saves the form's body through the declared routes (create, or an update of what changed
 * against the stored workflow). A server 400 naming a body field (`tasks.2.path: …`) is marked
 * on that field's input as well as raised as the alert.
 */
export function useWorkflowSave(mode: 'create' | 'edit', record?: Workflow) {
  const previous = useMemo(() => (record ? storedBodyOf(record) : undefined), [record]);
  const save = useDeclaredSave(mode, previous as (FieldValues & { id: string }) | undefined, BODY_FIELDS);
  return useCallback(
    async (body: FieldValues) => {
      const errors = await save(body);
      if (!errors) return undefined;
      const kindOf = bodySourceKind(body);
      return Object.fromEntries(Object.entries(errors).map(([path, message]) => [formPathOf(path.split('.'), kindOf), message]));
    },
    [save],
  );
}
