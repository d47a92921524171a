import { notificationsContract } from '../../../../common/contract/notifications';
import type { Notification } from '../../../../resources/notifications/api';
import { answered, contractFake, type ContractFake } from '../../contractFake';

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

export type NotificationsApi = ContractFake<Notification>;

const NAMES: Record<string, string> = { [ADA]: 'Ada Admin', [BOB]: 'Bob Builder' };
const newestFirst = (rows: Notification[]) => [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
const read = (row: Notification) => {
  if (row.status === 'unread') Object.assign(row, { status: 'read', readAt: '2026-11-22T09:00:00.000Z' });
};

/**
 * A server honouring the notifications contract (docs/api/notifications.md) over an in-memory
 * table, for `caller`: their own rows, or everyone's when `seesEveryone`; the bell's calls and the
 * mark-read ones are the caller's own alone.
 */
export function notificationsApi({
  caller = ADA,
  seesEveryone = false,
  initial = inbox(),
}: { caller?: string; seesEveryone?: boolean; initial?: Notification[] } = {}): NotificationsApi {
  const own = () => api.rows.filter((row) => row.userId === caller);
  const api: NotificationsApi = contractFake<Notification>(
    notificationsContract,
    initial.map((row) => ({ ...row })),
    {
      visible: (row) => seesEveryone || row.userId === caller,
      filterBy: { user: (row, wanted) => anyOf(wanted).includes(row.userId) },
      filterProps: (rows) => ({
        status: [
          { id: 'unread', name: 'Unread' },
          { id: 'read', name: 'Read' },
        ],
        type: [...new Set(rows.map((row) => row.type))]
          .sort()
          .map((type) => ({ id: type, name: type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()) })),
        user: (seesEveryone ? [ADA, BOB] : [caller]).map((id) => ({ id, name: NAMES[id] })),
        createdBy: [{ id: BOB, name: 'Bob Builder' }],
      }),
      more: {
        'GET /notifications/count': () =>
          answered('Notification count', {
            unread: own().filter((row) => row.status === 'unread').length,
            total: own().length,
            countExact: true,
          }),
        'GET /notifications': () => answered('Latest notifications', newestFirst(own()).slice(0, 10)),
        'PUT /notification/count': (_, { notificationId }) => {
          const row = own().find((candidate) => candidate.id === notificationId);
          if (!row) return answered('Notification not found', undefined, 404);
          read(row);
          return answered('Notification marked as read', row);
        },
        'PUT /notification': () => {
          const unread = own().filter((row) => row.status === 'unread');
          unread.forEach(read);
          return answered(`${unread.length} notifications marked as read`, { updated: unread.length });
        },
      },
    },
  );
  return api;
}
