import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API } from '../../framework/harness';
import type { Session } from '../../../../resources/sessions';
import { listAnswer, matches, recordCalls, type Recorder } from '../audits/listApi';

export const MIA = { id: '22222222-2222-4222-8222-222222222222', name: 'Mia Jones', email: 'mia@acme.test' };
export const LEO = { id: '33333333-3333-4333-8333-333333333333', name: 'Leo Park', email: 'leo@acme.test' };
/** The signed-in admin of the harness (`adminUser`). */
export const ADA = { id: 'u-admin', name: 'Ada Admin', email: 'ada@acme.test' };

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 22, 12);

/**
 * Session `index` (1 the newest): Mia and Leo in turn; open unless `state` says otherwise.
 * `ended`: ended by a sign-out; `expired`: over without an end; `pending`: waiting for its code.
 */
export function session(
  index: number,
  state: 'active' | 'ended' | 'expired' | 'pending' = 'active',
  overrides: Partial<Session> = {},
): Session {
  const user = index % 2 ? MIA : LEO;
  const createdAt = NOW - index * HOUR;
  return {
    id: `5e55${String(index).padStart(4, '0')}-0000-4000-8000-000000000000`,
    userId: user.id,
    email: user.email,
    userName: user.name,
    ip: `192.0.2.${index}`,
    userAgent: `Browser/${index}`,
    stage: state === 'pending' ? 'otp' : 'full',
    createdAt: new Date(createdAt).toISOString(),
    lastSeenAt: new Date(createdAt + 10 * 60_000).toISOString(),
    expiresAt: new Date(state === 'expired' ? createdAt + HOUR / 2 : createdAt + 48 * HOUR).toISOString(),
    endedAt: state === 'ended' ? new Date(createdAt + HOUR / 2).toISOString() : null,
    endReason: state === 'ended' ? 'logout' : null,
    isDeleted: state === 'ended' || state === 'expired',
    active: state === 'active',
    impersonatorUserId: null,
    impersonatorEmail: null,
    current: false,
    ...overrides,
  };
}

const stateOf = (row: Session) => (row.isDeleted ? 'ended' : row.active ? 'active' : 'pending');

export interface SessionApi extends Recorder {
  rows: Session[];
  /** Makes `PUT /session/logout` fail with this status and message. */
  logoutFails: { status: number; message: string } | null;
}

const FILTER_FIELDS = ['user', 'status', 'startDate', 'endDate', 'search'];

/** The session routes of docs/api/sessions.md over an in-memory table, open sessions first. */
export function sessionApi(initial: Session[]): SessionApi {
  const api = { rows: [...initial], logoutFails: null } as SessionApi;
  const ordered = (rows: Session[], field = 'isDeleted', order = 'ASC') => {
    const direction = order === 'ASC' ? 1 : -1;
    return [...rows].sort((a, b) => {
      const key = field as keyof Session;
      const first = direction * String(a[key] ?? '').localeCompare(String(b[key] ?? ''));
      return first || b.createdAt.localeCompare(a.createdAt);
    });
  };
  server.use(
    http.get(`${API}/session/filter/props`, () =>
      HttpResponse.json({
        message: 'Session filters',
        data: {
          user: [MIA, LEO, ADA].map((user) => ({ id: user.id, name: user.name })),
          status: [
            { id: 'active', name: 'Active' },
            { id: 'ended', name: 'Ended' },
          ],
        },
      }),
    ),
    http.get(`${API}/session/cards`, () =>
      HttpResponse.json({
        message: 'Session cards',
        data: {
          cards: [
            { key: 'openNow', label: 'Signed in now', value: api.rows.filter((row) => row.active).length, link: '/sessions' },
            { key: 'signInsToday', label: 'Sign-ins today', value: 5 },
            {
              key: 'endedByAdmin7Days',
              label: 'Ended by an admin in the last 7 days',
              value: api.rows.filter((row) => row.endReason === 'ended_by_admin').length,
            },
            { key: 'impersonationsOpen', label: 'Impersonation sessions open', value: 0 },
          ],
        },
      }),
    ),
    http.get(`${API}/session/user/:id`, ({ params, request }) => {
      const url = new URL(request.url);
      const rows = ordered(api.rows.filter((row) => row.userId === params.id));
      return listAnswer(rows, Number(url.searchParams.get('offset') ?? 0), Number(url.searchParams.get('limit') ?? 100));
    }),
    http.get(`${API}/session/:offset/:limit`, ({ params }) => listAnswer(ordered(api.rows), Number(params.offset), Number(params.limit))),
    http.post(`${API}/session/filter/:offset/:limit/:order/:field`, async ({ params, request }) => {
      const filter = ((await request.json()) ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(filter).find((name) => !FILTER_FIELDS.includes(name));
      if (unknown) return HttpResponse.json({ message: `${unknown}: unknown filter field` }, { status: 400 });
      const rows = api.rows.filter((row) =>
        matches(row, filter, { user: row.userId, status: stateOf(row) }, `${row.email} ${row.userName} ${row.ip} ${row.userAgent}`),
      );
      return listAnswer(ordered(rows, String(params.field), String(params.order)), Number(params.offset), Number(params.limit));
    }),
    http.put(`${API}/session/logout`, async ({ request }) => {
      if (api.logoutFails) return HttpResponse.json({ message: api.logoutFails.message }, { status: api.logoutFails.status });
      const body = (await request.json()) as { sessionId?: string };
      const row = api.rows.find((candidate) => candidate.id === body.sessionId);
      if (!row) return HttpResponse.json({ message: 'Session not found' }, { status: 404 });
      if (row.endedAt) return HttpResponse.json({ message: 'sessionId: this session has already ended' }, { status: 400 });
      Object.assign(row, { endedAt: new Date(NOW).toISOString(), endReason: 'ended_by_admin', isDeleted: true, active: false });
      return HttpResponse.json({ message: `The session of ${row.email} has been ended` });
    }),
  );
  // Registered last, so it sees each call first.
  return Object.assign(api, recordCalls('/session'));
}
