import { sessionsContract } from '../../../../common/contract/sessions';
import type { Session } from '../../../../resources/sessions';
import { answered, contractFake, type ContractFake } from '../../contractFake';

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
const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);

export interface SessionApi extends ContractFake<Session> {
  /** Makes `PUT /session/logout` fail with this status and message. */
  logoutFails: { status: number; message: string } | null;
}

/**
 * A server honouring the sessions contract (docs/api/sessions.md) over an in-memory table: open
 * sessions first, then the newest; ending one (`PUT /session/logout { sessionId }`) is its delete.
 */
export function sessionApi(initial: Session[]): SessionApi {
  const api: SessionApi = Object.assign(
    contractFake<Session>(sessionsContract, initial, {
      thenBy: { field: 'createdAt', order: 'DESC' },
      filterFields: ['user', 'status', 'startDate', 'endDate', 'search'],
      searchIn: ['email', 'userName', 'ip', 'userAgent'],
      filterBy: {
        user: (row, wanted) => anyOf(wanted).includes(row.userId),
        status: (row, wanted) => anyOf(wanted).includes(stateOf(row)),
      },
      relatedBy: { user: 'userId' },
      filterProps: {
        user: [MIA, LEO, ADA].map((user) => ({ id: user.id, name: user.name })),
        status: [
          { id: 'active', name: 'Active' },
          { id: 'ended', name: 'Ended' },
        ],
      },
      cards: (rows) => ({
        cards: [
          { key: 'openNow', label: 'Signed in now', value: rows.filter((row) => row.active).length, link: '/sessions' },
          { key: 'signInsToday', label: 'Sign-ins today', value: 5 },
          {
            key: 'endedByAdmin7Days',
            label: 'Ended by an admin in the last 7 days',
            value: rows.filter((row) => row.endReason === 'ended_by_admin').length,
          },
          { key: 'impersonationsOpen', label: 'Impersonation sessions open', value: 0 },
        ],
      }),
      refuse: {
        delete: (row) => {
          if (api.logoutFails) return answered(api.logoutFails.message, undefined, api.logoutFails.status);
          return row?.endedAt ? 'sessionId: this session has already ended' : undefined;
        },
      },
      softDelete: (row) =>
        Object.assign(row, { endedAt: new Date(NOW).toISOString(), endReason: 'ended_by_admin', isDeleted: true, active: false }),
      messages: { delete: (row) => `The session of ${row.email} has been ended` },
    }),
    { logoutFails: null },
  );
  return api;
}
