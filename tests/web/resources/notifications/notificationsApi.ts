import { http, HttpResponse } from 'msw';
import type { Notification } from '../../../../resources/notifications/api';
import { server } from '../../msw';

export const API = '/api/v1';

export const ADA = '5d0c7a1e-2b3c-4d5e-8f90-a10000000001';
export const BOB = '5d0c7a1e-2b3c-4d5e-8f90-a10000000002';

export function notification(overrides: Partial<Notification> & Pick<Notification, 'id' | 'title'>): Notification {
  return {
    userId: ADA,
    userName: 'Ada Admin',
    type: 'role_changed',
    message: 'Something happened',
    link: null,
    status: 'unread',
    createdBy: BOB,
    createdByName: 'Bob Builder',
    createdAt: '2026-11-20T10:00:00.000Z',
    readAt: null,
    ...overrides,
  };
}

/** Ada's three (two unread), and one of Bob's that only someone who sees everyone's gets. */
export function inbox(): Notification[] {
  return [
    notification({
      id: 'n-role',
      title: 'Your role changed',
      message: 'You are now an Editor',
      link: '/roles/r-editor/show',
      createdAt: '2026-11-21T10:00:00.000Z',
    }),
    notification({
      id: 'n-joined',
      title: 'Cy joined',
      message: 'Cy Newcomer accepted the invitation',
      type: 'invitation_accepted',
      createdBy: null,
      createdByName: null,
      link: '/users',
      createdAt: '2026-11-20T10:00:00.000Z',
    }),
    notification({
      id: 'n-old',
      title: 'Hello from Acme',
      message: 'Welcome aboard',
      type: 'welcome',
      status: 'read',
      readAt: '2026-11-02T10:00:00.000Z',
      createdAt: '2026-11-01T10:00:00.000Z',
    }),
    notification({
      id: 'n-bob',
      title: 'Your job stopped',
      message: 'Nightly load failed',
      type: 'job_failed',
      userId: BOB,
      userName: 'Bob Builder',
      createdAt: '2026-11-19T10:00:00.000Z',
    }),
  ];
}

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface NotificationsApi {
  rows: Notification[];
  calls: Call[];
  seen(filter?: RegExp): string[];
  bodiesOf(pattern: RegExp): unknown[];
  failWith(pattern: RegExp, status: number, message: string): void;
}

/**
 * The notification routes over an in-memory table, as docs/api/notifications.md describes them,
 * for `caller`: their own rows, or everyone's when `seesEveryone`.
 */
export function notificationsApi({
  caller = ADA,
  seesEveryone = false,
  initial = inbox(),
}: { caller?: string; seesEveryone?: boolean; initial?: Notification[] } = {}): NotificationsApi {
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  const api: NotificationsApi = {
    rows: initial.map((row) => ({ ...row })),
    calls: [],
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    bodiesOf: (pattern) => api.calls.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern, status, message) => failures.push({ pattern, status, message }),
  };
  const visible = () => api.rows.filter((row) => seesEveryone || row.userId === caller);
  const own = () => api.rows.filter((row) => row.userId === caller);
  const newestFirst = (rows: Notification[]) => [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const list = (rows: Notification[], offset: number, limit: number) =>
    HttpResponse.json({
      message: 'Notifications',
      data: { rows: rows.slice(offset, offset + limit), count: rows.length, countExact: true },
    });
  const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
  const read = (row: Notification) => {
    if (row.status === 'unread') Object.assign(row, { status: 'read', readAt: '2026-11-22T09:00:00.000Z' });
  };

  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = decodeURIComponent(url.pathname.slice(API.length));
      if (!path.startsWith('/notification')) return undefined;
      const body =
        request.method === 'GET'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/notification/options`, () =>
      HttpResponse.json({
        message: 'Notification filters',
        data: {
          status: [
            { id: 'unread', name: 'Unread' },
            { id: 'read', name: 'Read' },
          ],
          type: [...new Set(visible().map((row) => row.type))]
            .sort()
            .map((type) => ({ id: type, name: type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) })),
          user: seesEveryone
            ? [
                { id: ADA, name: 'Ada Admin' },
                { id: BOB, name: 'Bob Builder' },
              ]
            : [{ id: caller, name: caller === ADA ? 'Ada Admin' : 'Bob Builder' }],
          createdBy: [{ id: BOB, name: 'Bob Builder' }],
        },
      }),
    ),
    http.get(`${API}/notification/search/:offset/:limit/:text`, ({ params }) => {
      const needle = String(params.text).toLowerCase();
      const rows = visible().filter((row) => `${row.title} ${row.message}`.toLowerCase().includes(needle));
      return list(newestFirst(rows), Number(params.offset), Number(params.limit));
    }),
    http.post(`${API}/notification/filter/:offset/:limit/:order/:field`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      let rows = visible().filter(
        (row) =>
          (filter.status === undefined || anyOf(filter.status).includes(row.status)) &&
          (filter.user === undefined || anyOf(filter.user).includes(row.userId)) &&
          (filter.type === undefined || anyOf(filter.type).includes(row.type)) &&
          (filter.createdBy === undefined || anyOf(filter.createdBy).includes(String(row.createdBy))) &&
          (filter.startDate === undefined || row.createdAt.slice(0, 10) >= String(filter.startDate)) &&
          (filter.endDate === undefined || row.createdAt.slice(0, 10) <= String(filter.endDate)) &&
          (filter.search === undefined || `${row.title} ${row.message}`.toLowerCase().includes(String(filter.search).toLowerCase())),
      );
      const field = String(params.field) as keyof Notification;
      const direction = params.order === 'ASC' ? 1 : -1;
      rows = [...rows].sort((a, b) => direction * String(a[field] ?? '').localeCompare(String(b[field] ?? '')));
      return list(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/notification/:offset/:limit`, ({ params }) =>
      list(newestFirst(visible()), Number(params.offset), Number(params.limit)),
    ),
    http.get(`${API}/notifications/count`, () =>
      HttpResponse.json({
        message: 'Notification count',
        data: { unread: own().filter((row) => row.status === 'unread').length, total: own().length, countExact: true },
      }),
    ),
    http.get(`${API}/notifications`, () => HttpResponse.json({ message: 'Latest notifications', data: newestFirst(own()).slice(0, 10) })),
    http.put(`${API}/notification/count`, async ({ request }) => {
      const { notificationId } = (await request.json()) as { notificationId: string };
      const row = own().find((candidate) => candidate.id === notificationId);
      if (!row) return HttpResponse.json({ message: 'Notification not found' }, { status: 404 });
      read(row);
      return HttpResponse.json({ message: 'Notification marked as read', data: row });
    }),
    http.put(`${API}/notification`, () => {
      const unread = own().filter((row) => row.status === 'unread');
      unread.forEach(read);
      return HttpResponse.json({ message: `${unread.length} notifications marked as read`, data: { updated: unread.length } });
    }),
  );
  return api;
}
