import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../framework/harness';
import type { AccessEvent } from '../../../../resources/access-events';
import { listAnswer, matches, recordCalls, type Recorder } from '../audits/listApi';

export const MIA = { id: '22222222-2222-4222-8222-222222222222', name: 'Mia Jones', email: 'mia@acme.test' };
export const LEO = { id: '33333333-3333-4333-8333-333333333333', name: 'Leo Park', email: 'leo@acme.test' };

const STATUSES: AccessEvent['status'][] = ['success', 'failure', 'blocked'];

/** Event `index` (1 the newest): Mia and Leo in turn, success, failure and blocked in turn. */
export function accessEvent(index: number, overrides: Partial<AccessEvent> = {}): AccessEvent {
  const user = index % 2 ? MIA : LEO;
  const status = STATUSES[index % 3];
  return {
    id: `e-${index}`,
    userId: user.id,
    email: user.email,
    userName: user.name,
    event: 'signin',
    status,
    reason: status === 'failure' ? 'bad_password' : status === 'blocked' ? 'throttled' : null,
    ip: `198.51.100.${index}`,
    userAgent: `Agent/${index}.0 (X11; Linux)`,
    impersonatorUserId: null,
    impersonatorEmail: null,
    createdAt: new Date(Date.UTC(2026, 10, 22, 12) - index * 3_600_000).toISOString(),
    ...overrides,
  };
}

export interface EventApi extends Recorder {
  rows: AccessEvent[];
  /** What `GET /fetchDistinctEventStatus` answers; null: it fails. */
  statusValues: string[] | null;
}

const FILTER_FIELDS = ['user', 'status', 'startDate', 'endDate', 'search'];

/** The access event routes of docs/api/audits.md over an in-memory table. */
export function eventApi(initial: AccessEvent[]): EventApi {
  const api = { rows: [...initial], statusValues: ['blocked', 'failure', 'success'] } as EventApi;
  server.use(
    http.get(`${API}/access/events/filter/props`, () =>
      HttpResponse.json({
        message: 'Access event filters',
        data: {
          user: [MIA, LEO].map((user) => ({ id: user.id, name: user.name })),
          // All three, whatever is present: the console must take the statuses from fetchDistinctEventStatus.
          status: STATUSES.map((status) => ({ id: status, name: status.toUpperCase() })),
        },
      }),
    ),
    http.get(`${API}/access/events/cards`, () =>
      HttpResponse.json({
        message: 'Access event cards',
        data: {
          cards: [
            { key: 'signinsToday', label: 'Successful sign-ins today', value: 4 },
            { key: 'failuresToday', label: 'Failures today', value: 7 },
            { key: 'blocked7Days', label: 'Blocked attempts in the last 7 days', value: 2 },
            { key: 'impersonations7Days', label: 'Impersonations in the last 7 days', value: 1 },
          ],
        },
      }),
    ),
    http.get(`${API}/fetchDistinctEventStatus`, () =>
      api.statusValues
        ? HttpResponse.json({ message: 'Access event statuses', statusValues: api.statusValues })
        : HttpResponse.json({ message: 'Database unavailable' }, { status: 500 }),
    ),
    http.get(`${API}/access/events/:offset/:limit`, ({ params }) => listAnswer(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/access/events/filter/:offset/:limit`, async ({ params, request }) => {
      const filter = ((await request.json()) ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(filter).find((name) => !FILTER_FIELDS.includes(name));
      if (unknown) return HttpResponse.json({ message: `${unknown}: unknown filter field` }, { status: 400 });
      const rows = api.rows.filter((row) =>
        matches(
          row,
          filter,
          { user: row.userId, status: row.status },
          `${row.email} ${row.event} ${row.reason ?? ''} ${row.ip} ${row.userAgent}`,
        ),
      );
      return listAnswer(rows, Number(params.offset), Number(params.limit));
    }),
  );
  // Registered last, so it sees each call first.
  return Object.assign(api, recordCalls('/access/events', '/fetchDistinctEventStatus'));
}
