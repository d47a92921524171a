import { http, HttpResponse } from 'msw';
import type { DataTable, DictionaryEntry, QualityRule, QualityRun, RuleResult } from '../../../../resources/tables/types';
import { server } from '../../msw';
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

export interface Call {
  method: string;
  path: string;
  body?: unknown;
  headers: Record<string, string>;
}

export interface TablesApi {
  rows: DataTable[];
  entries: DictionaryEntry[];
  rules: QualityRule[];
  calls: Call[];
  /**
   * The parts of the uploads received, by field: a file part as `file` (jsdom's File reaches the
   * test's fetch without its name or bytes, so uploadForm's own test checks the very file goes in).
   */
  uploads: Record<string, string>[];
  /** What the upload answers: counts, or a refusal. */
  uploadAnswer: { status: number; body: unknown };
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string, times?: number): void;
}

export const DICTIONARY_CSV = 'column,description,business_name,sensitivity,owner\r\nid,The id,,internal,\r\nemail,,,pii,crm-team\r\n';

/**
 * The tables routes of docs/api/tables.md over in-memory rows, for table t-1's dictionary and
 * rules; every call is recorded with its JSON body and headers.
 */
export function tablesApi(initial: DataTable[] = tables()): TablesApi {
  const failures: { pattern: RegExp; status: number; message: string; times: number }[] = [];
  const api: TablesApi = {
    rows: [...initial],
    entries: dictionary(),
    rules: rules(),
    calls: [],
    uploads: [],
    uploadAnswer: { status: 200, body: { message: 'Dictionary uploaded: 2 columns updated', data: { updated: 2, unchanged: 21 } } },
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message, times = Infinity) => failures.push({ pattern, status, message, times }),
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'Table not found' }, { status: 404 });
  const page = <T>(rows: T[], offset: number, limit: number, label = 'Tables') =>
    HttpResponse.json({ message: label, data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true } });
  const searchOf = (request: Request) => (new URL(request.url).searchParams.get('searchText') ?? '').toLowerCase();

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length) + url.search;
      if (!/^\/tables?\//.test(path) && path !== '/table') return undefined;
      const json = request.headers.get('content-type')?.includes('application/json');
      const body = json
        ? await request
            .clone()
            .json()
            .catch(() => undefined)
        : undefined;
      api.calls.push({ method: request.method, path, body, headers: Object.fromEntries(request.headers.entries()) });
      const failure = failures.find((candidate) => candidate.times > 0 && candidate.pattern.test(`${request.method} ${path}`));
      if (failure) {
        failure.times -= 1;
        return HttpResponse.json({ message: failure.message }, { status: failure.status });
      }
      return undefined;
    }),
    http.get(`${API}/tables/filters`, () =>
      HttpResponse.json({
        message: 'Table filters',
        data: {
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
      }),
    ),
    http.get(`${API}/tables/topCards`, () =>
      HttpResponse.json({
        message: 'Table cards',
        data: {
          cards: [
            { key: 'total', label: 'Tables', value: api.rows.length },
            { key: 'described', label: 'Described (%)', value: 71 },
          ],
        },
      }),
    ),
    http.get(`${API}/tables/search/:offset/:limit`, ({ params, request }) => {
      const search = searchOf(request);
      return page(
        api.rows.filter((row) => row.name.includes(search) || row.endpoint.includes(search)),
        Number(params.offset),
        Number(params.limit),
      );
    }),
    http.post(`${API}/tables/filters/:offset/:limit`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
      const rows = api.rows.filter(
        (row) =>
          (filter.connection === undefined || anyOf(filter.connection).includes(row.connectionId)) &&
          (filter.source === undefined || anyOf(filter.source).includes(String(row.connectionType))) &&
          (filter.search === undefined || row.name.includes(String(filter.search))),
      );
      return page(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/tables/dataDictionary/search/tableId/:id/:offset/:limit`, ({ params, request }) => {
      const search = searchOf(request);
      const rows = api.entries.filter((candidate) =>
        [candidate.name, candidate.description, candidate.businessName, candidate.owner].some((text) =>
          text?.toLowerCase().includes(search),
        ),
      );
      return page(rows, Number(params.offset), Number(params.limit), 'Dictionary');
    }),
    http.get(`${API}/tables/dataDictionary/tableId/:id/:offset/:limit`, ({ params }) =>
      page(api.entries, Number(params.offset), Number(params.limit), 'Dictionary'),
    ),
    http.get(`${API}/tables/:offset/:limit`, ({ params }) => page(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/table`, async ({ request }) => {
      const body = (await request.json()) as Partial<DataTable>;
      const row = dataTable({
        id: `t-new-${api.rows.length}`,
        name: body.name ?? String(body.endpoint),
        endpoint: String(body.endpoint),
        connectionId: String(body.connectionId),
      });
      api.rows.unshift(row);
      return HttpResponse.json({ message: `Table "${row.name}" registered`, data: row }, { status: 201 });
    }),
    http.post(`${API}/table/activate/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = ((await request.json()) as { isActive: boolean }).isActive;
      return HttpResponse.json({ message: `Table "${row.name}" ${row.isActive ? 'activated' : 'deactivated'}`, data: row });
    }),
    http.post(`${API}/table/configure/:id`, () =>
      HttpResponse.json({
        message: 'Columns read again: 1 added, 1 removed, 1 changed',
        data: { added: ['score'], removed: ['legacy_code'], changed: ['amount'] },
      }),
    ),
    http.post(`${API}/table/:id/configure`, () => HttpResponse.json({ message: 'Checks ran: 1 failed', data: RUN })),
    http.get(
      `${API}/table/dictionary/:id`,
      () =>
        new HttpResponse(DICTIONARY_CSV, {
          headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="orders-dictionary.csv"' },
        }),
    ),
    http.post(`${API}/tables/dictionary/upload/:id`, async ({ request }) => {
      const form = await request.formData();
      api.uploads.push(
        Object.fromEntries([...form.entries()].map(([field, value]) => [field, typeof value === 'string' ? value : 'file'])),
      );
      return HttpResponse.json(api.uploadAnswer.body as object, { status: api.uploadAnswer.status });
    }),
    http.get(`${API}/table/dataQuality/:id/:offset/:limit`, ({ params }) =>
      page(api.rules, Number(params.offset), Number(params.limit), 'Rules'),
    ),
    http.get(`${API}/tables/dataQuality/search/tableId/:id/:offset/:limit`, ({ params, request }) => {
      const search = searchOf(request);
      return page(
        api.rules.filter((candidate) => candidate.name.toLowerCase().includes(search)),
        Number(params.offset),
        Number(params.limit),
        'Rules',
      );
    }),
    http.post(`${API}/tables/dataQuality/filter/tableId/:id/:offset/:limit`, async ({ params, request }) => {
      const filter = (await request.json()) as { functionType?: string; functionName?: string; searchText?: string };
      const rows = api.rules.filter(
        (candidate) =>
          (!filter.functionType || candidate.functionType === filter.functionType) &&
          (!filter.functionName || candidate.functionName === filter.functionName) &&
          (!filter.searchText || candidate.name.toLowerCase().includes(filter.searchText.toLowerCase())),
      );
      return page(rows, Number(params.offset), Number(params.limit), 'Rules');
    }),
    http.post(`${API}/table/dataQuality/:id`, async ({ request }) => {
      const body = (await request.json()) as Partial<QualityRule> & { id?: string };
      const existing = body.id ? api.rules.find((candidate) => candidate.id === body.id) : undefined;
      if (existing) {
        Object.assign(existing, body);
        return HttpResponse.json({ message: `Rule "${existing.name}" saved`, data: existing });
      }
      const created = rule({ ...(body as QualityRule), id: `6b0e3c52-51a4-4a39-9d55-00000000010${api.rules.length}` });
      api.rules.unshift(created);
      return HttpResponse.json({ message: `Rule "${created.name}" created`, data: created }, { status: 201 });
    }),
    http.delete(`${API}/table/dataQuality/:id`, ({ params }) => {
      const existing = api.rules.find((candidate) => candidate.id === params.id);
      if (!existing) return HttpResponse.json({ message: 'Rule not found' }, { status: 404 });
      api.rules = api.rules.filter((candidate) => candidate !== existing);
      return HttpResponse.json({ message: `Rule "${existing.name}" deleted` });
    }),
    http.get(`${API}/table/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'Table', data: row }) : notFound();
    }),
    http.put(`${API}/table/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      const body = (await request.json()) as Partial<DataTable> & { columns?: Partial<DictionaryEntry>[] };
      const { columns, ...fields } = body;
      Object.assign(row, fields);
      for (const change of columns ?? []) {
        const target = api.entries.find((candidate) => candidate.name === change.name);
        if (target) Object.assign(target, change);
      }
      return HttpResponse.json({ message: `Table "${row.name}" saved`, data: row });
    }),
  );
  return api;
}
