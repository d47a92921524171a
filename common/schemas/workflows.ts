import { z } from 'zod';

/** Bodies of the workflows area (docs/api/workflows.md), shared by the server and the console. */

export const WORKFLOW_NAME_MAX = 120;
export const TASKS_MAX = 50;
export const TASK_TYPES = ['copy', 'sql', 'quality', 'notify'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const COPY_MODES = ['create', 'replace', 'append', 'merge'] as const;
export type CopyMode = (typeof COPY_MODES)[number];
/** What a task saved without its mode is told: the mode is always a choice, never a default. */
export const COPY_MODE_REQUIRED = 'Choose how the copy writes: create, replace, append or merge';
export const COPY_KEYS_MAX = 16;
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out'] as const;

const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, `must be at most ${max} characters`);
const required = (max: number) => text(max).min(1, 'is required');
const optionalId = z.union([z.uuid({ error: 'must be a valid id' }), z.literal(''), z.null()], { error: 'must be a valid id' });

/** `schema.table`, or a file's path for file sources: letters, digits and the usual separators. */
const tableName = required(300).regex(/^[^;'"\\\u0000]+$/, 'must be a table name such as public.orders');

const taskBase = {
  id: required(64).regex(/^[A-Za-z0-9_-]+$/, 'may hold only letters, digits, - and _'),
  name: required(120),
};

/** A column of the source, as its catalog names it (quoted by the destination's dialect wherever it is used). */
const columnName = required(128).regex(/^[^\u0000]+$/, 'must be a column name');

export const copyTask = z
  .object({
    ...taskBase,
    type: z.literal('copy'),
    from: z.union(
      [
        z.object({ table: tableName }).strict(),
        z.object({ query: required(20_000).regex(/^\s*(select|with)\b/i, 'must be one SELECT or WITH statement') }).strict(),
      ],
      {
        error: 'give the source table ({ table }) or a query ({ query })',
      },
    ),
    to: z
      .object({
        table: tableName,
        mode: z.enum(COPY_MODES, { error: COPY_MODE_REQUIRED }),
        /** Merge only: the source columns that identify a row; the destination gets a unique key on exactly them. */
        keys: z
          .array(columnName, { error: 'must be a list of column names' })
          .max(COPY_KEYS_MAX, `may hold at most ${COPY_KEYS_MAX} columns`)
          .optional(),
      })
      .strict(),
    /** A column of the source that only grows (a timestamp, an id): each run reads the rows above the last successful run's greatest value. */
    watermark: columnName.optional(),
    batchSize: z
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1000, 'must be at least 1000')
      .max(100_000, 'must be at most 100000')
      .optional(),
  })
  .strict()
  .superRefine((task, ctx) => {
    const keys = task.to.keys ?? [];
    if (task.to.mode === 'merge' && keys.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['to', 'keys'],
        message: 'A merge needs key columns: choose the source columns that identify a row',
      });
    }
    if (task.to.mode !== 'merge' && keys.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['to', 'keys'], message: 'Only a merge takes key columns' });
    }
    keys.forEach((key, index) => {
      if (keys.indexOf(key) !== index) ctx.addIssue({ code: 'custom', path: ['to', 'keys', index], message: `"${key}" is named twice` });
    });
    if (task.watermark !== undefined && task.to.mode !== 'append' && task.to.mode !== 'merge') {
      ctx.addIssue({
        code: 'custom',
        path: ['watermark'],
        message: 'An incremental copy adds to its destination: choose append or merge to use a watermark column',
      });
    }
  });

export const sqlTask = z
  .object({
    ...taskBase,
    type: z.literal('sql'),
    path: required(500).regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).+\.sql$/i, 'must be a relative path to a .sql file of the repository'),
    ref: text(200).optional(),
    target: z.enum(['destination', 'source'], { error: 'must be destination or source' }).optional(),
  })
  .strict();

export const qualityTask = z
  .object({
    ...taskBase,
    type: z.literal('quality'),
    tableIds: z
      .array(z.uuid({ error: 'must be table ids' }), { error: 'must be a list of table ids' })
      .min(1, 'give at least one table')
      .max(100, 'may hold at most 100 tables'),
  })
  .strict();

const emails = z
  .array(z.email({ error: 'must be email addresses' }), { error: 'must be a list of email addresses' })
  .max(50, 'may hold at most 50 addresses');

export const notifyTask = z
  .object({
    ...taskBase,
    type: z.literal('notify'),
    message: required(2000),
    slackConnectionId: optionalId.optional(),
    emails: emails.optional(),
  })
  .strict();

export const workflowTask = z.discriminatedUnion('type', [copyTask, sqlTask, qualityTask, notifyTask], {
  error: `type: must be one of ${TASK_TYPES.join(', ')}`,
});
export type WorkflowTask = z.output<typeof workflowTask>;

/** Five fields: minute hour day-of-month month day-of-week. */
const CRON = /^\s*(\S+\s+){4}\S+\s*$/;

export const scheduleField = z
  .object({
    cron: z.string({ error: 'is required' }).trim().regex(CRON, 'must be a cron expression of five fields, such as 0 2 * * *'),
    timezone: z
      .string()
      .trim()
      .default('UTC')
      .refine((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'must be a time zone such as Europe/Paris'),
  })
  .strict();

const workflowFields = {
  name: required(WORKFLOW_NAME_MAX),
  description: text(2000).optional(),
  workspaceId: optionalId.optional(),
  pairId: z.uuid({ error: 'must be a valid id' }),
  repositoryConnectionId: optionalId.optional(),
  databricksConnectionId: optionalId.optional(),
  databricksJobId: z.union([text(64).regex(/^\d*$/, 'must be the number of a Databricks job'), z.null()]).optional(),
  tasks: z
    .array(workflowTask, { error: 'must be a list of tasks' })
    .max(TASKS_MAX, `may hold at most ${TASKS_MAX} tasks`)
    .superRefine((tasks, ctx) => {
      const seen = new Set<string>();
      tasks.forEach((task, index) => {
        const key = task.name.toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `"${task.name}" is the name of another task` });
        seen.add(key);
      });
      const ids = tasks.map((task) => task.id);
      ids.forEach((id, index) => {
        if (ids.indexOf(id) !== index) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'is the id of another task' });
      });
    }),
  schedule: z.union([scheduleField, z.null()]).optional(),
  retries: z
    .object({
      max: z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(10, 'must be at most 10'),
      backoffSeconds: z
        .number({ error: 'must be a number' })
        .int('must be a whole number')
        .min(10, 'must be at least 10')
        .max(3600, 'must be at most 3600')
        .default(60),
    })
    .strict()
    .optional(),
  timeoutMinutes: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1440, 'must be at most 1440')
    .optional(),
  concurrency: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(10, 'must be at most 10')
    .optional(),
  notifyOnFailure: z
    .object({
      inApp: z.boolean({ error: 'must be true or false' }).default(true),
      slackConnectionId: optionalId.optional(),
      emails: emails.optional(),
    })
    .strict()
    .optional(),
};

export const createWorkflowBody = z.object({ ...workflowFields, tasks: workflowFields.tasks.min(1, 'give at least one task') }).strict();
export const updateWorkflowBody = z.object(workflowFields).partial().strict();
export type CreateWorkflowBody = z.output<typeof createWorkflowBody>;
export type UpdateWorkflowBody = z.output<typeof updateWorkflowBody>;
