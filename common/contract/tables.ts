import { z } from 'zod';
import { CONNECTION_TYPES } from '../connections';
import { answer, card, choice, listAnswer, timestamp } from './answers';
import { qualityRuleBody } from '../schemas/quality';
import { dictionaryCsvFile, dictionaryUploadAnswer, dictionaryUploadForm } from './answers/dictionary';
import {
  failingRowsCsvFile,
  failingRowsPage,
  pageLimitParam,
  pageOffsetParam,
  QUALITY_STATUSES,
  qualityRuleRow,
  qualityRun,
  qualityRunPage,
} from './answers/quality';
import { defineAction, defineContract, everyAction } from './define';

/** A table as the lists and the one-table routes answer it (docs/api/tables.md). */
export const tableRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** What it was registered from: `schema.table`, or a file's path. */
  endpoint: z.string(),
  connectionId: z.string(),
  connectionName: z.string(),
  connectionType: z.enum(CONNECTION_TYPES),
  workspaceId: z.string().nullable(),
  /** Null without a workspace, or when its workspace was deleted. */
  workspaceName: z.string().nullable(),
  isActive: z.boolean(),
  /** The columns the source has now. */
  columnCount: z.number().int(),
  /** Of those, the ones with a description. */
  describedCount: z.number().int(),
  ruleCount: z.number().int(),
  /** The newest run of its data-quality rules; null until they have run. */
  lastRun: z
    .object({
      id: z.string(),
      status: z.enum(QUALITY_STATUSES),
      startedAt: timestamp,
      endedAt: timestamp.nullable(),
    })
    .nullable(),
  /** When the columns were last read from the source. */
  discoveredAt: timestamp.nullable(),
  /** A timestamp, or an id that only grows: row rules then read only the rows past their last result. */
  watermarkColumn: z.string().nullable(),
  createdBy: z.string().nullable(),
  /** The creator's name, else their email; null when the creator is gone. */
  createdByName: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Table = z.infer<typeof tableRow>;

/** `{ message, data: { rows, count, countExact } }` of tables, newest first. */
export const tableListAnswer = listAnswer(tableRow);

/** `GET /table/{id}`, `POST /table` (201), `PUT /table/{id}`, `POST /table/activate/{id}`. */
export const tableAnswer = answer(tableRow);

/** `GET /table/connection/{id}`: the tables of one connection, by name. */
export const connectionTablesAnswer = answer(z.array(tableRow));

/** `GET /tables/filters`: the choices of the filter bar (`source` are connection types, by label). */
export const tableFilterPropsAnswer = answer(
  z.object({
    connection: z.array(choice),
    user: z.array(choice),
    workspace: z.array(choice),
    /** `id` and `name` are both the endpoint. */
    endpoint: z.array(choice),
    source: z.array(choice),
  }),
);

/** `GET /tables/topCards`: `total`, `active`, `columns`, `described` (%), `rules`, `failing`. */
export const tableCardsAnswer = answer(z.object({ cards: z.array(card) }));

/** `POST /table/configure/{id}`: the columns, by name, the source added, no longer has, or changed. */
export const tableColumnsRefresh = z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) });

/** `POST /table/{id}/configure`: the rules to run, by id; all the active ones when none are named. */
export const runChecksBody = z.preprocess(
  (body) => body ?? {},
  z
    .object({
      ruleIds: z
        .array(z.uuid({ error: 'must be a valid id' }))
        .max(500)
        .optional(),
      /** Every row, for a table with a watermark column ("Full check"); the rules' next runs read the rows after it. */
      full: z.boolean({ error: 'must be true or false' }).optional(),
    })
    .strict(),
);

export const tablesContract = defineContract({
  name: 'tables',
  row: tableRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'name', type: 'text', sortable: true },
    { source: 'endpoint', type: 'text', sortable: true },
    { source: 'isActive', type: 'boolean', sortable: true },
    { source: 'discoveredAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true },
  ],
  routes: {
    list: '/tables/{offset}/{limit}',
    filter: { path: '/tables/filters/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/tables/filters',
    cards: '/tables/topCards',
    search: '/tables/search/{offset}/{limit}?searchText={search}',
    one: '/table/{id}',
    create: '/table',
    update: '/table/{id}',
    activate: { path: '/table/activate/{id}', method: 'POST', body: { isActive: true } },
    deactivate: { path: '/table/activate/{id}', method: 'POST', body: { isActive: false } },
  },
  policy: everyAction('tables', 'Tables, data dictionaries and data quality', 5),
  page: { id: 'tables', title: 'Tables', url: '/tables', group: 'data', icon: 'table_chart', order: 4 },
  audit: { model: 'table' },
  activation: { field: 'isActive' },
  actions: {
    refreshColumns: defineAction({
      path: '/table/configure/{id}',
      method: 'POST',
      summary: "Read a table's columns from the source again",
      data: tableColumnsRefresh,
    }),
    /** Answers a CSV file (`Content-Disposition: attachment`), not JSON: see common/contract/answers/dictionary.ts. */
    dictionaryCsv: defineAction({
      path: '/table/dictionary/{id}',
      method: 'GET',
      summary: "A table's data dictionary as CSV (also the upload template)",
      answer: dictionaryCsvFile,
    }),
    /** Takes a multipart/form-data body holding one CSV file. */
    uploadDictionary: defineAction({
      path: '/tables/dictionary/upload/{id}',
      method: 'POST',
      summary: 'Describe columns from a CSV file (all or nothing)',
      body: { kind: 'multipart', parts: dictionaryUploadForm },
      data: dictionaryUploadAnswer.shape.data,
    }),
    /** Adds a rule to table `{id}` (201), or changes the one the body's `id` names (200). */
    saveRule: defineAction({
      path: '/table/dataQuality/{id}',
      method: 'POST',
      summary: 'Add a data-quality rule to a table, or change one (with its id)',
      body: qualityRuleBody,
      data: qualityRuleRow,
      status: [201, 200],
    }),
    /** `{id}` is the rule's. */
    deleteRule: defineAction({
      path: '/table/dataQuality/{id}',
      method: 'DELETE',
      summary: 'Delete a data-quality rule (its past results stay)',
    }),
    runChecks: defineAction({
      path: '/table/{id}/configure',
      method: 'POST',
      summary: "Run a table's data-quality rules now",
      body: runChecksBody,
      data: qualityRun,
    }),
    /** The table's runs, newest first, without their results. */
    qualityRuns: defineAction({
      path: '/table/quality/runs/{id}/{offset}/{limit}',
      method: 'GET',
      summary: "A page of a table's data-quality runs, newest first",
      params: { offset: pageOffsetParam, limit: pageLimitParam },
      data: qualityRunPage,
    }),
    /** `{id}` is the run's. */
    qualityRun: defineAction({
      path: '/table/quality/run/{id}',
      method: 'GET',
      summary: 'One data-quality run with its results',
      data: qualityRun,
    }),
    /** `{id}` is the run's; the rows are those the rule kept (the company's `qualitySampleRows`). */
    failingRows: defineAction({
      path: '/table/quality/run/{id}/failingRows/{ruleId}/{offset}/{limit}',
      method: 'GET',
      summary: 'A page of the failing rows one rule kept in a run, pii masked',
      params: { ruleId: z.uuid({ error: 'must be a valid id' }), offset: pageOffsetParam, limit: pageLimitParam },
      data: failingRowsPage,
    }),
    /** Answers a CSV file (`Content-Disposition: attachment`), not JSON. */
    failingRowsCsv: defineAction({
      path: '/table/quality/run/{id}/failingRows/{ruleId}/csv',
      method: 'GET',
      summary: 'The failing rows one rule kept in a run, as CSV',
      params: { ruleId: z.uuid({ error: 'must be a valid id' }) },
      answer: failingRowsCsvFile,
    }),
  },
});
