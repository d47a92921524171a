import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../framework/harness';
import type { AuditEntry } from '../../../../resources/audits';
import { listAnswer, matches, recordCalls, type Recorder } from './listApi';

const USERS = [
  { id: '11111111-1111-4111-8111-111111111111', name: 'Ada Admin', email: 'ada@acme.test' },
  { id: '22222222-2222-4222-8222-222222222222', name: 'Mia Jones', email: 'mia@acme.test' },
];
export const [ADA, MIA] = USERS;

const MODELS = ['role', 'user', 'workspace'];
const OPERATIONS = ['update', 'create', 'delete'];

/** Entry `index` (1 is the newest): models, operations and users in turn; changes of the house's three shapes. */
export function auditEntry(index: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  const user = USERS[index % 2];
  const operation = OPERATIONS[index % 3];
  const changes =
    operation === 'update'
      ? {
          before: { name: `Old ${index}`, isActive: true, description: 'same' },
          after: { name: `New ${index}`, isActive: false, description: 'same' },
        }
      : operation === 'create'
        ? { after: { name: `Made ${index}`, workspaceIds: ['w-1', 'w-2'] } }
        : { before: { name: `Gone ${index}` } };
  return {
    id: `a-${index}`,
    model: MODELS[index % 3],
    operation,
    recordId: `rec-${index}`,
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    impersonatorUserId: null,
    impersonatorEmail: null,
    // Every third entry was made with an API key.
    apiKeyName: index % 3 === 0 ? 'Nightly sync' : null,
    changes,
    ip: `203.0.113.${index}`,
    createdAt: new Date(Date.UTC(2026, 10, 22) - index * 3_600_000).toISOString(),
    ...overrides,
  };
}

export interface AuditApi extends Recorder {
  rows: AuditEntry[];
  /** Lists answer `countExact: false` past this many rows. */
  countCap: number;
}

const FILTER_FIELDS = ['model', 'operation', 'user', 'startDate', 'endDate', 'search', 'offset', 'limit'];

/** The audit routes of docs/api/audits.md over an in-memory table. */
export function auditApi(initial: AuditEntry[]): AuditApi {
  const api = { rows: [...initial], countCap: 10_000 } as AuditApi;
  server.use(
    http.get(`${API}/system/audits/filter/props`, () =>
      HttpResponse.json({
        message: 'System audit filters',
        data: {
          model: [
            { id: 'role', name: 'Role' },
            { id: 'user', name: 'User' },
            { id: 'workspace', name: 'Workspace' },
          ],
          operation: [
            { id: 'create', name: 'Create' },
            { id: 'delete', name: 'Delete' },
            { id: 'update', name: 'Update' },
          ],
          user: USERS.map((user) => ({ id: user.id, name: user.name })),
        },
      }),
    ),
    http.get(`${API}/system/audits/cards`, () =>
      HttpResponse.json({
        message: 'System audit cards',
        data: {
          cards: [
            { key: 'total', label: 'Audit entries', value: api.rows.length },
            { key: 'today', label: 'Entries today', value: 3 },
            { key: 'last7Days', label: 'Entries in the last 7 days (10,000 or more)', value: 10000 },
            { key: 'users7Days', label: 'Users who made changes in the last 7 days', value: 2 },
          ],
        },
      }),
    ),
    http.get(`${API}/system/audits/:offset/:limit`, ({ params }) =>
      listAnswer(api.rows, Number(params.offset), Number(params.limit), api.countCap),
    ),
    http.post(`${API}/system/audits/filter/:offset/:limit`, async ({ params, request }) => {
      const filter = ((await request.json()) ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(filter).find((name) => !FILTER_FIELDS.includes(name));
      if (unknown) return HttpResponse.json({ message: `${unknown}: unknown filter field` }, { status: 400 });
      const rows = api.rows.filter((row) =>
        matches(
          row,
          filter,
          { model: row.model, operation: row.operation, user: row.userId },
          `${row.model} ${row.operation} ${row.recordId} ${JSON.stringify(row.changes)}`,
        ),
      );
      // The path wins over the body's offset and limit.
      return listAnswer(rows, Number(params.offset), Number(params.limit), api.countCap);
    }),
  );
  // Registered last, so it sees each call first (msw tries the newest handlers first).
  return Object.assign(api, recordCalls('/system/audits'));
}
