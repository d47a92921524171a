import { get, set, type FieldErrors, type FieldValues, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import {
  COPY_MODES,
  createWorkflowBody,
  TASKS_MAX,
  updateWorkflowBody,
  type TaskType,
  type WorkflowTask,
} from '../../common/schemas/workflows';
import type { Engine, Workflow } from './types';

/**
 * The workflow form's values and the body they make. The form mirrors the body (docs/api/
 * workflows.md) so that the shared schema's problems land on the inputs they are about; it adds
 * only what the body says by absence: the engine (a Databricks connection or not), whether there
 * is a schedule, and whether a copy reads a table or a query. Every task holds the inputs of
 * every type, so that changing a task's type keeps what was typed; its body takes its type's.
 */

export type SourceKind = 'table' | 'query';
export type ScheduleMode = 'off' | 'cron';
export type CopyMode = (typeof COPY_MODES)[number];
export type SqlTarget = 'destination' | 'source';

export interface TaskFormValues {
  id: string;
  name: string | null;
  type: TaskType;
  sourceKind: SourceKind;
  from: { table: string | null; query: string | null };
  /** No mode until one is chosen: how a copy writes is never assumed. `keys` are a merge's. */
  to: { table: string | null; mode: CopyMode | null; keys: string[] };
  /** An incremental copy's watermark column; blank for a copy of every row. */
  watermark: string | null;
  batchSize: number | null;
  path: string | null;
  ref: string | null;
  target: SqlTarget;
  tableIds: string[];
  message: string | null;
  slackConnectionId: string | null;
  emails: string[];
}

export interface WorkflowFormValues {
  name: string | null;
  description: string | null;
  workspaceId: string | null;
  pairId: string | null;
  engine: Engine;
  databricksConnectionId: string | null;
  databricksJobId: string | null;
  repositoryConnectionId: string | null;
  tasks: TaskFormValues[];
  scheduleMode: ScheduleMode;
  schedule: { cron: string | null; timezone: string | null };
  retries: { max: number | null; backoffSeconds: number | null };
  timeoutMinutes: number | null;
  concurrency: number | null;
  notifyOnFailure: { inApp: boolean; slackConnectionId: string | null; emails: string[] };
}

export const DEFAULT_CRON = '0 2 * * *';
export const DEFAULTS = { backoffSeconds: 60, timeoutMinutes: 60, concurrency: 1 } as const;

/** The time zones a schedule may name (the browser's list; UTC always). */
export const TIME_ZONES: readonly string[] = (() => {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

const isBlank = (value: unknown): boolean => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const textOf = (value: unknown): string => (isBlank(value) ? '' : String(value));

/** A new task of a type, with the first free id (`task-1`, `task-2`, …). */
export function newTask(type: TaskType, existing: readonly Pick<TaskFormValues, 'id'>[]): TaskFormValues {
  const taken = new Set(existing.map((task) => task.id));
  let number = 1;
  while (taken.has(`task-${number}`)) number += 1;
  return {
    id: `task-${number}`,
    name: '',
    type,
    sourceKind: 'table',
    from: { table: '', query: '' },
    to: { table: '', mode: null, keys: [] },
    watermark: null,
    batchSize: null,
    path: '',
    ref: '',
    target: 'destination',
    tableIds: [],
    message: '',
    slackConnectionId: null,
    emails: [],
  };
}

/** A stored task as the form edits it. */
export function taskFormValuesOf(task: WorkflowTask): TaskFormValues {
  const blank = newTask(task.type, []);
  const base = { ...blank, id: task.id, name: task.name, type: task.type };
  switch (task.type) {
    case 'copy':
      return {
        ...base,
        sourceKind: 'query' in task.from ? 'query' : 'table',
        from: { table: 'table' in task.from ? task.from.table : '', query: 'query' in task.from ? task.from.query : '' },
        to: { table: task.to.table, mode: task.to.mode, keys: [...(task.to.keys ?? [])] },
        watermark: task.watermark ?? null,
        batchSize: task.batchSize ?? null,
      };
    case 'sql':
      return { ...base, path: task.path, ref: task.ref ?? '', target: task.target ?? 'destination' };
    case 'quality':
      return { ...base, tableIds: [...task.tableIds] };
    case 'notify':
      return { ...base, message: task.message, slackConnectionId: task.slackConnectionId || null, emails: [...(task.emails ?? [])] };
    default:
      return base;
  }
}

/** A new workflow's form. */
export function newWorkflowValues(): WorkflowFormValues {
  return {
    name: '',
    description: '',
    workspaceId: null,
    pairId: null,
    engine: 'local',
    databricksConnectionId: null,
    databricksJobId: null,
    repositoryConnectionId: null,
    tasks: [],
    scheduleMode: 'off',
    schedule: { cron: DEFAULT_CRON, timezone: browserTimeZone() },
    retries: { max: 0, backoffSeconds: DEFAULTS.backoffSeconds },
    timeoutMinutes: DEFAULTS.timeoutMinutes,
    concurrency: DEFAULTS.concurrency,
    notifyOnFailure: { inApp: true, slackConnectionId: null, emails: [] },
  };
}

/** A stored workflow as the form edits it. */
export function formValuesOf(workflow: Workflow): WorkflowFormValues {
  const fresh = newWorkflowValues();
  return {
    name: workflow.name,
    description: workflow.description ?? '',
    workspaceId: workflow.workspaceId || null,
    pairId: workflow.pairId || null,
    engine: workflow.databricksConnectionId ? 'databricks' : 'local',
    databricksConnectionId: workflow.databricksConnectionId || null,
    databricksJobId: workflow.databricksJobId || null,
    repositoryConnectionId: workflow.repositoryConnectionId || null,
    tasks: (workflow.tasks ?? []).map(taskFormValuesOf),
    scheduleMode: workflow.schedule ? 'cron' : 'off',
    schedule: workflow.schedule ? { cron: workflow.schedule.cron, timezone: workflow.schedule.timezone } : fresh.schedule,
    retries: workflow.retries ? { max: workflow.retries.max, backoffSeconds: workflow.retries.backoffSeconds } : fresh.retries,
    timeoutMinutes: workflow.timeoutMinutes ?? fresh.timeoutMinutes,
    concurrency: workflow.concurrency ?? fresh.concurrency,
    notifyOnFailure: {
      inApp: workflow.notifyOnFailure?.inApp ?? true,
      slackConnectionId: workflow.notifyOnFailure?.slackConnectionId || null,
      emails: [...(workflow.notifyOnFailure?.emails ?? [])],
    },
  };
}

const numberOr = (value: unknown): number | undefined => (isBlank(value) ? undefined : Number(value));

/** A task's body: its type's fields only, optional ones left out when blank. */
export function taskBodyOf(task: TaskFormValues): Record<string, unknown> {
  const base = { id: task.id, name: textOf(task.name), type: task.type };
  switch (task.type) {
    case 'copy':
      return {
        ...base,
        from: task.sourceKind === 'query' ? { query: textOf(task.from?.query) } : { table: textOf(task.from?.table) },
        to: {
          table: textOf(task.to?.table),
          ...(task.to?.mode ? { mode: task.to.mode } : {}),
          ...(task.to?.mode === 'merge' ? { keys: task.to.keys ?? [] } : {}),
        },
        ...(isBlank(task.watermark) || (task.to?.mode !== 'append' && task.to?.mode !== 'merge')
          ? {}
          : { watermark: textOf(task.watermark) }),
        ...(isBlank(task.batchSize) ? {} : { batchSize: Number(task.batchSize) }),
      };
    case 'sql':
      return { ...base, path: textOf(task.path), ...(isBlank(task.ref) ? {} : { ref: textOf(task.ref) }), target: task.target };
    case 'quality':
      return { ...base, tableIds: task.tableIds ?? [] };
    case 'notify':
      return {
        ...base,
        message: textOf(task.message),
        ...(isBlank(task.slackConnectionId) ? {} : { slackConnectionId: task.slackConnectionId }),
        ...((task.emails?.length ?? 0) > 0 ? { emails: task.emails } : {}),
      };
    default:
      return base;
  }
}

/**
 * The body the form makes, before the shared schema checks it. What a person cleared is said
 * (null, an empty text) so that an edit clears it; a new workflow's empty fields are left out
 * by the dataProvider.
 */
export function workflowBodyOf(values: WorkflowFormValues): Record<string, unknown> {
  const databricks = values.engine === 'databricks';
  const retriesMax = numberOr(values.retries?.max);
  return {
    name: textOf(values.name),
    description: textOf(values.description),
    workspaceId: values.workspaceId || null,
    pairId: textOf(values.pairId),
    repositoryConnectionId: values.repositoryConnectionId || null,
    databricksConnectionId: databricks ? values.databricksConnectionId || null : null,
    databricksJobId: databricks && !isBlank(values.databricksJobId) ? String(values.databricksJobId).trim() : null,
    tasks: (values.tasks ?? []).map(taskBodyOf),
    schedule:
      values.scheduleMode === 'cron' ? { cron: textOf(values.schedule?.cron), timezone: textOf(values.schedule?.timezone) || 'UTC' } : null,
    retries: retriesMax === undefined ? undefined : { max: retriesMax, backoffSeconds: numberOr(values.retries?.backoffSeconds) },
    timeoutMinutes: numberOr(values.timeoutMinutes),
    concurrency: numberOr(values.concurrency),
    notifyOnFailure: {
      inApp: values.notifyOnFailure?.inApp !== false,
      ...(isBlank(values.notifyOnFailure?.slackConnectionId) ? {} : { slackConnectionId: values.notifyOnFailure.slackConnectionId }),
      ...((values.notifyOnFailure?.emails?.length ?? 0) > 0 ? { emails: values.notifyOnFailure.emails } : {}),
    },
  };
}

/** The schema a form's body is checked by: the server's own (common/schemas/workflows.ts). */
export function schemaOf(mode: 'create' | 'edit') {
  return mode === 'create' ? createWorkflowBody : updateWorkflowBody;
}

/**
 * A stored workflow's body as an edit would send it unchanged: what the update compares the
 * form's body with, so that only what changed is sent.
 */
export function storedBodyOf(workflow: Workflow): Record<string, unknown> {
  const body = workflowBodyOf(formValuesOf(workflow));
  const parsed = updateWorkflowBody.safeParse(body);
  return { id: workflow.id, ...(parsed.success ? parsed.data : body) };
}

type PathPart = string | number | symbol;

/**
 * Where a problem with a body field shows in the form. The body mirrors the form, except: a
 * copy's source is one of two inputs, a list of addresses is one input, a task id has no input
 * (its name stands for it), and problems of a whole task or of the task list go beside them.
 */
export function formPathOf(path: readonly PathPart[], sourceKindOf: (index: number) => SourceKind): string {
  const parts = path.map(String);
  if (parts.length === 0) return 'root';
  const [head, index, field, ...rest] = parts;
  if (head === 'tasks') {
    if (index === undefined) return 'tasks.root';
    if (field === undefined) return `tasks.${index}.type`;
    if (field === 'from') return `tasks.${index}.from.${sourceKindOf(Number(index))}`;
    if (field === 'to' && rest.length === 0) return `tasks.${index}.to.table`;
    if (field === 'to' && rest[0] === 'keys') return `tasks.${index}.to.keys`;
    if (field === 'id') return `tasks.${index}.name`;
    if (field === 'emails' || field === 'tableIds') return `tasks.${index}.${field}`;
    return parts.join('.');
  }
  if (head === 'notifyOnFailure' && index === 'emails') return 'notifyOnFailure.emails';
  if (head === 'schedule' && index === undefined) return 'schedule.cron';
  if (head === 'retries' && index === undefined) return 'retries.max';
  return parts.join('.');
}

/** Which input a copy task's source problem belongs to, from the form or from a body. */
export function formSourceKind(values: Pick<WorkflowFormValues, 'tasks'>) {
  return (index: number): SourceKind => values.tasks?.[index]?.sourceKind ?? 'table';
}

export function bodySourceKind(body: { tasks?: unknown }) {
  return (index: number): SourceKind => {
    const from = (Array.isArray(body.tasks) ? (body.tasks[index] as { from?: object } | undefined)?.from : undefined) ?? {};
    return 'query' in from ? 'query' : 'table';
  };
}

type Issue = z.core.$ZodIssue;

/** An issue's message; for a copy's source (a union) the message of the input shown. */
function messageOf(issue: Issue, sourceKindOf: (index: number) => SourceKind): string {
  if (issue.code === 'invalid_union' && issue.errors.length === 2 && issue.path.at(-1) === 'from' && issue.path[0] === 'tasks') {
    const option = sourceKindOf(Number(issue.path[1])) === 'query' ? 1 : 0;
    return issue.errors[option]?.[0]?.message ?? issue.message;
  }
  return issue.message;
}

/**
 * What the form needs beyond the body's rules: a pair (the body's id rule would say "must be a
 * valid id" of an empty select), the Databricks connection once the engine is Databricks (else
 * the body would quietly mean the local runner), and a repository for SQL tasks.
 */
export function formProblems(values: WorkflowFormValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (isBlank(values.pairId)) problems.pairId = 'ra.validation.required';
  if (values.engine === 'databricks' && isBlank(values.databricksConnectionId))
    problems.databricksConnectionId = 'resources.workflows.form.databricks_needed';
  if ((values.tasks ?? []).some((task) => task.type === 'sql') && isBlank(values.repositoryConnectionId)) {
    problems.repositoryConnectionId = 'resources.workflows.form.repository_needed';
  }
  return problems;
}

export type WorkflowCheckResult = { ok: true; body: Record<string, unknown> } | { ok: false; errors: FieldErrors };

/** Checks the form's workflow by the shared schema; each problem is put on the input it is about. */
export function checkWorkflowForm(mode: 'create' | 'edit', values: WorkflowFormValues): WorkflowCheckResult {
  const parsed = schemaOf(mode).safeParse(workflowBodyOf(values));
  const errors: FieldValues = {};
  const put = (path: string, message: string, type: string) => {
    if (!get(errors, path)) set(errors, path, { type, message });
  };
  Object.entries(formProblems(values)).forEach(([path, message]) => put(path, message, 'required'));
  const kindOf = formSourceKind(values);
  if (!parsed.success) parsed.error.issues.forEach((issue) => put(formPathOf(issue.path, kindOf), messageOf(issue, kindOf), issue.code));
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors: errors as FieldErrors };
  return { ok: true, body: parsed.data as Record<string, unknown> };
}

export function workflowResolver(mode: 'create' | 'edit'): Resolver<FieldValues> {
  return async (values) => {
    const checked = checkWorkflowForm(mode, values as WorkflowFormValues);
    return checked.ok ? { values: checked.body, errors: {} } : { values: {}, errors: checked.errors };
  };
}

const TASK_FIELDS = [
  'id',
  'name',
  'type',
  'from',
  'from.table',
  'from.query',
  'to',
  'to.table',
  'to.mode',
  'to.keys',
  'watermark',
  'batchSize',
  'path',
  'ref',
  'target',
  'tableIds',
  'message',
  'slackConnectionId',
  'emails',
];

/** Every body field a server 400 may name (`schedule.cron: …`, `tasks.2.path: …`), to mark its input. */
export const BODY_FIELDS: readonly string[] = [
  'name',
  'description',
  'workspaceId',
  'pairId',
  'repositoryConnectionId',
  'databricksConnectionId',
  'databricksJobId',
  'tasks',
  'schedule',
  'schedule.cron',
  'schedule.timezone',
  'retries',
  'retries.max',
  'retries.backoffSeconds',
  'timeoutMinutes',
  'concurrency',
  'notifyOnFailure',
  'notifyOnFailure.inApp',
  'notifyOnFailure.slackConnectionId',
  'notifyOnFailure.emails',
  ...Array.from({ length: TASKS_MAX }, (_, index) => TASK_FIELDS.map((field) => `tasks.${index}.${field}`)).flat(),
];

// ---- Schedule presets ------------------------------------------------------------------------

export type SchedulePreset = 'hourly' | 'daily' | 'weekly' | 'custom';

export interface PresetState {
  preset: SchedulePreset;
  hour: number;
  weekday: number;
}

const WHOLE = /^\d+$/;

/** Which preset a cron expression is, if any: every hour, every day at an hour, every week on a day at an hour. */
export function presetOf(cron: string | null | undefined): PresetState {
  const fields = (cron ?? '').trim().split(/\s+/);
  const fallback = { hour: 2, weekday: 1 };
  if (fields.length !== 5) return { preset: 'custom', ...fallback };
  const [minute, hour, day, month, weekday] = fields;
  if (minute !== '0' || day !== '*' || month !== '*') return { preset: 'custom', ...fallback };
  if (hour === '*' && weekday === '*') return { preset: 'hourly', ...fallback };
  if (!WHOLE.test(hour) || Number(hour) > 23) return { preset: 'custom', ...fallback };
  if (weekday === '*') return { preset: 'daily', hour: Number(hour), weekday: fallback.weekday };
  if (/^[0-6]$/.test(weekday)) return { preset: 'weekly', hour: Number(hour), weekday: Number(weekday) };
  return { preset: 'custom', ...fallback };
}

/** The cron expression of a preset; null for "custom" (the expression stays as typed). */
export function cronOfPreset({ preset, hour, weekday }: PresetState): string | null {
  switch (preset) {
    case 'hourly':
      return '0 * * * *';
    case 'daily':
      return `0 ${hour} * * *`;
    case 'weekly':
      return `0 ${hour} * * ${weekday}`;
    default:
      return null;
  }
}
