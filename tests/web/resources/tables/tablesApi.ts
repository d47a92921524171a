import { HttpResponse } from 'msw';
import { tablesContract } from '../../../../common/contract/tables';
import type { DataTable, DictionaryEntry, QualityRule, QualityRun, RuleResult } from '../../../../resources/tables/types';
import { answered, contractFake, paged, type ContractFake, type Values } from '../../contractFake';
import { FILES, FINANCE, PG } from '../connections/connectionsApi';

export const API = '/api/v1';

export function dataTable(overrides: Partial<DataTable> & Pick<DataTable, 'id' | 'name'>): DataTable {
  return {
    description: null,
    endpoint: `public.${overrides.name}`,
    connectionId: PG,
    connectionName: 'Warehouse',
    connectionType: 'postgresql',
    workspaceId: null,
    workspaceName: null,
    isActive: true,
    columnCount: 0,
    describedCount: 0,
    ruleCount: 0,
    lastRun: null,
    discoveredAt: '2026-11-10T08:00:00.000Z',
    createdBy: 'u-admin',
    createdByName: 'Ada Admin',
    createdAt: '2026-11-10T08:00:00.000Z',
    updatedAt: '2026-11-10T08:00:00.000Z',
    ...overrides,
  };
}

export function tables(): DataTable[] {
  return [
    dataTable({
      id: 't-1',
      name: 'orders',
      endpoint: 'sales.orders',
      workspaceId: FINANCE,
      workspaceName: 'Finance',
      columnCount: 20,
      describedCount: 12,
      ruleCount: 3,
      lastRun: { id: 'run-1', status: 'failed', startedAt: '2026-11-20T10:00:00.000Z', endedAt: '2026-11-20T10:00:02.000Z' },
      createdAt: '2026-11-12T08:00:00.000Z',
    }),
    dataTable({ id: 't-2', name: 'customers', columnCount: 8, describedCount: 8, createdAt: '2026-11-11T08:00:00.000Z' }),
    dataTable({
      id: 't-3',
      name: 'exports.csv',
      endpoint: 'exports.csv',
      connectionId: FILES,
      connectionName: 'Exports',
      connectionType: 'files',
      isActive: false,
    }),
  ];
}

const NAMES = [
  'id',
  'email',
  'full_name',
  'country',
  'status',
  'amount',
  'currency',
  'created_at',
  'updated_at',
  'paid_at',
  'shipped_at',
  'sku',
  'quantity',
  'discount',
  'channel',
  'coupon',
  'note',
  'tax',
  'region',
  'segment',
  'score',
  'source',
  'legacy_code',
];

export function entry(position: number, overrides: Partial<DictionaryEntry> = {}): DictionaryEntry {
  const name = NAMES[position - 1] ?? `col_${position}`;
  return {
    name,
    position,
    dataType: position === 1 ? 'integer' : 'text',
    nullable: position !== 1,
    description: position <= 3 ? `The ${name.replace('_', ' ')}` : null,
    businessName: null,
    sensitivity: 'internal',
    owner: null,
    present: name !== 'legacy_code',
    updatedAt: null,
    updatedByName: null,
    ...overrides,
  };
}

export function dictionary(): DictionaryEntry[] {
  return NAMES.map((_, index) => entry(index + 1));
}

export function result(overrides: Partial<RuleResult> & Pick<RuleResult, 'ruleId' | 'ruleName' | 'functionName' | 'status'>): RuleResult {
  return {
    columnName: null,
    severity: 'fail',
    observed: null,
    rowsScanned: 1000,
    rowsFailed: 0,
    failedShare: 0,
    sample: [],
    query: null,
    message: null,
    startedAt: '2026-11-20T10:00:00.000Z',
    endedAt: '2026-11-20T10:00:02.000Z',
    ...overrides,
  };
}

export function rule(overrides: Partial<QualityRule> & Pick<QualityRule, 'id' | 'name' | 'functionName'>): QualityRule {
  return {
    tableId: 't-1',
    functionType: 'column',
    columnName: null,
    params: {},
    severity: 'fail',
    tolerance: 0,
    isActive: true,
    lastResult: null,
    createdAt: '2026-11-12T08:00:00.000Z',
    updatedAt: '2026-11-12T08:00:00.000Z',
    ...overrides,
  };
}

export function rules(): QualityRule[] {
  return [
    rule({
      id: '6b0e3c52-51a4-4a39-9d55-000000000001',
      name: 'Email present',
      functionName: 'not_null',
      columnName: 'email',
      lastResult: result({
        ruleId: 'r',
        ruleName: 'Email present',
        functionName: 'not_null',
        status: 'failed',
        observed: 3,
        rowsFailed: 3,
        rowsScanned: 1000,
        failedShare: 0.003,
      }),
    }),
    rule({
      id: '6b0e3c52-51a4-4a39-9d55-000000000002',
      name: 'Amount range',
      functionName: 'value_between',
      columnName: 'amount',
      params: { min: 0, max: 10000 },
      severity: 'warn',
      tolerance: 0.05,
    }),
    rule({
      id: '6b0e3c52-51a4-4a39-9d55-000000000003',
      name: 'Enough rows',
      functionName: 'row_count_between',
      functionType: 'table',
      params: { min: 100 },
    }),
  ];
}

export const RUN: QualityRun = {
  id: 'run-2',
  tableId: 't-1',
  trigger: 'manual',
  status: 'failed',
  startedAt: '2026-11-22T09:00:00.000Z',
  endedAt: '2026-11-22T09:00:03.000Z',
  error: null,
  results: [
    result({
      ruleId: '6b0e3c52-51a4-4a39-9d55-000000000001',
      ruleName: 'Email present',
      functionName: 'not_null',
      columnName: 'email',
      status: 'failed',
      observed: 2,
      rowsScanned: 1000,
      rowsFailed: 2,
      failedShare: 0.002,
      sample: [
        { id: 17, email: null, full_name: '***' },
        { id: 42, email: null, full_name: '***' },
      ],
      query: 'select count(*) as rows, sum(case when "email" is null then 1 else 0 end) as r1 from "sales"."orders"',
      startedAt: '2026-11-22T09:00:00.000Z',
      endedAt: '2026-11-22T09:00:03.000Z',
    }),
    result({
      ruleId: '6b0e3c52-51a4-4a39-9d55-000000000003',
      ruleName: 'Enough rows',
      functionName: 'row_count_between',
      status: 'passed',
      observed: 1000,
      rowsScanned: 1000,
      rowsFailed: null,
      failedShare: null,
      query: 'select count(*) from "sales"."orders"',
    }),
  ],
};

/** Failing rows a run may have kept for "Email present": 45, more than a page (a test sets them). */
export const KEPT_ROWS = Array.from({ length: 45 }, (_, index) => ({ id: 100 + index, email: null, full_name: 'A***' }));

export const DICTIONARY_CSV = 'column,description,business_name,sensitivity,owner\r\nid,The id,,internal,\r\nemail,,,pii,crm-team\r\n';

export interface TablesApi extends ContractFake<DataTable> {
  entries: DictionaryEntry[];
  rules: QualityRule[];
  /**
   * The parts of the uploads received, by field: a file part as `file` (jsdom's File reaches the
   * test's fetch without its name or bytes, so uploadForm's own test checks the very file goes in).
   */
  uploads: Record<string, string>[];
  /** What the upload answers: counts, or a refusal. */
  uploadAnswer: { status: number; body: unknown };
  /** The table's kept runs, newest first, and the failing rows each kept, by `runId/ruleId`. */
  runs: QualityRun[];
  failingRows: Record<string, Record<string, unknown>[]>;
}

const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const named = (row: DataTable, what: string) => `Table "${row.name}" ${what}`;

/**
 * A server honouring the tables contract (docs/api/tables.md) over in-memory rows, with table
 * t-1's data dictionary (its download and upload) and its quality rules and checks beside it.
 */
export function tablesApi(initial: DataTable[] = tables()): TablesApi {
  const containing = (search: string | undefined, texts: (string | null)[]) =>
    texts.some((text) => text?.toLowerCase().includes((search ?? '').toLowerCase()));
  const rulesPage = (rows: QualityRule[], { offset, limit }: Values) => paged('Rules', rows, Number(offset), Number(limit));
  const entriesPage = (rows: DictionaryEntry[], { offset, limit }: Values) => paged('Dictionary', rows, Number(offset), Number(limit));
  const api: TablesApi = Object.assign(
    contractFake<DataTable>(tablesContract, initial, {
      created: (body) =>
        dataTable({
          id: `t-new-${api.rows.length}`,
          name: body.name === undefined ? String(body.endpoint) : String(body.name),
          endpoint: String(body.endpoint),
          connectionId: String(body.connectionId),
        }),
      // The columns' descriptions are the table's dictionary entries.
      applied: ({ columns, ...fields }) => {
        for (const change of (columns ?? []) as Partial<DictionaryEntry>[]) {
          const target = api.entries.find((candidate) => candidate.name === change.name);
          if (target) Object.assign(target, change);
        }
        return fields;
      },
      searchIn: ['name', 'endpoint'],
      filterBy: {
        connection: (row, wanted) => anyOf(wanted).includes(row.connectionId),
        source: (row, wanted) => anyOf(wanted).includes(String(row.connectionType)),
      },
      filterProps: {
        connection: [
          { id: PG, name: 'Warehouse' },
          { id: FILES, name: 'Exports' },
        ],
        user: [{ id: 'u-admin', name: 'Ada Admin' }],
        workspace: [{ id: FINANCE, name: 'Finance' }],
        endpoint: [{ id: 'sales.orders', name: 'sales.orders' }],
        source: [
          { id: 'postgresql', name: 'PostgreSQL' },
          { id: 'files', name: 'Folder of files' },
        ],
      },
      cards: (rows) => ({
        cards: [
          { key: 'total', label: 'Tables', value: rows.length },
          { key: 'described', label: 'Described (%)', value: 71 },
        ],
      }),
      messages: {
        one: () => 'Table',
        create: (row) => named(row, 'registered'),
        update: (row) => named(row, 'saved'),
        activate: (row) => named(row, 'activated'),
        deactivate: (row) => named(row, 'deactivated'),
      },
      more: {
        'POST /table/configure/{id}': () =>
          answered('Columns read again: 1 added, 1 removed, 1 changed', {
            added: ['score'],
            removed: ['legacy_code'],
            changed: ['amount'],
          }),
        // The dictionary: its pages, its search, its download as CSV and its upload.
        'GET /tables/dataDictionary/tableId/{id}/{offset}/{limit}': (values) => entriesPage(api.entries, values),
        'GET /tables/dataDictionary/search/tableId/{id}/{offset}/{limit}?searchText={search}': (values) =>
          entriesPage(
            api.entries.filter((candidate) =>
              containing(values.search, [candidate.name, candidate.description, candidate.businessName, candidate.owner]),
            ),
            values,
          ),
        'GET /table/dictionary/{id}': () =>
          new HttpResponse(DICTIONARY_CSV, {
            headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="orders-dictionary.csv"' },
          }),
        'POST /tables/dictionary/upload/{id}': (_, form) => {
          api.uploads.push(
            Object.fromEntries(Object.entries(form).map(([field, value]) => [field, typeof value === 'string' ? value : 'file'])),
          );
          return { status: api.uploadAnswer.status, json: api.uploadAnswer.body };
        },
        // The quality rules: their pages, search and filter, their changes, and a check run.
        'GET /table/dataQuality/{id}/{offset}/{limit}': (values) => rulesPage(api.rules, values),
        'GET /tables/dataQuality/search/tableId/{id}/{offset}/{limit}?searchText={search}': (values) =>
          rulesPage(
            api.rules.filter((candidate) => containing(values.search, [candidate.name])),
            values,
          ),
        'POST /tables/dataQuality/filter/tableId/{id}/{offset}/{limit}': (values, filter) =>
          rulesPage(
            api.rules.filter(
              (candidate) =>
                (!filter.functionType || candidate.functionType === filter.functionType) &&
                (!filter.functionName || candidate.functionName === filter.functionName) &&
                (!filter.searchText || containing(String(filter.searchText), [candidate.name])),
            ),
            values,
          ),
        'POST /table/dataQuality/{id}': (_, body) => {
          const existing = body.id ? api.rules.find((candidate) => candidate.id === body.id) : undefined;
          if (existing) {
            Object.assign(existing, body);
            return answered(`Rule "${existing.name}" saved`, existing);
          }
          const created = rule({ ...(body as unknown as QualityRule), id: `6b0e3c52-51a4-4a39-9d55-00000000010${api.rules.length}` });
          api.rules.unshift(created);
          return answered(`Rule "${created.name}" created`, created, 201);
        },
        'DELETE /table/dataQuality/{id}': ({ id }) => {
          const existing = api.rules.find((candidate) => candidate.id === id);
          if (!existing) return answered('Rule not found', undefined, 404);
          api.rules = api.rules.filter((candidate) => candidate !== existing);
          return answered(`Rule "${existing.name}" deleted`);
        },
        'POST /table/{id}/configure': () => answered('Checks ran: 1 failed', RUN),
        // The kept runs and the failing rows they kept.
        'GET /table/quality/runs/{id}/{offset}/{limit}': ({ offset, limit }) =>
          answered('Data-quality runs', {
            rows: api.runs.slice(Number(offset), Number(offset) + Number(limit)).map(({ results: _results, ...run }) => run),
            count: api.runs.length,
          }),
        'GET /table/quality/run/{id}': ({ id }) => {
          const run = api.runs.find((candidate) => candidate.id === id);
          return run ? answered('Data-quality run', run) : answered('Data-quality run not found', undefined, 404);
        },
        'GET /table/quality/run/{id}/failingRows/{ruleId}/{offset}/{limit}': ({ id, ruleId, offset, limit }) => {
          const rows = api.failingRows[`${id}/${ruleId}`];
          if (!rows) return answered('Data-quality result not found', undefined, 404);
          return answered('Failing rows', { rows: rows.slice(Number(offset), Number(offset) + Number(limit)), count: rows.length });
        },
        'GET /table/quality/run/{id}/failingRows/{ruleId}/csv': ({ id, ruleId }) => {
          const rows = api.failingRows[`${id}/${ruleId}`] ?? [];
          return new HttpResponse(
            ['id,email,full_name', ...rows.map((row) => `${String(row.id)},,${String(row.full_name)}`)].join('\r\n'),
            {
              headers: {
                'content-type': 'text/csv; charset=utf-8',
                'content-disposition': 'attachment; filename="Email_present-failing-rows.csv"',
              },
            },
          );
        },
      },
    }),
    {
      entries: dictionary(),
      rules: rules(),
      uploads: [] as Record<string, string>[],
      runs: [RUN],
      failingRows: { [`${RUN.id}/${RUN.results[0].ruleId}`]: RUN.results[0].sample ?? [] } as Record<string, Record<string, unknown>[]>,
      uploadAnswer: {
        status: 200,
        body: { message: 'Dictionary uploaded: 2 columns updated', data: { updated: 2, unchanged: 21 } },
      } as TablesApi['uploadAnswer'],
    },
  );
  return api;
}
