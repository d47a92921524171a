import { z } from 'zod';
import { card, choice, timestamp } from './answers';
import { defineContract } from './define';

/** What an access event records. */
export const ACCESS_EVENT_KINDS = [
  'signin',
  'otp',
  'otp_setup',
  'password_change',
  'password_reset_request',
  'password_reset',
  'password_create',
  'logout',
  'session_end',
  'impersonation',
  'impersonation_end',
] as const;

/** How it went: `blocked` is a refusal while throttled. */
export const ACCESS_EVENT_STATUSES = ['blocked', 'failure', 'success'] as const;

/**
 * Why an event failed or was blocked, what a successful sign-in still waits for (`otp_required`,
 * `otp_setup_required`), or what ended a session.
 */
export const ACCESS_EVENT_REASONS = [
  'bad_password',
  'bad_temporary_password',
  'bad_code',
  'replayed_code',
  'throttled',
  'ended_by_admin',
  'otp_required',
  'otp_setup_required',
  'not_active',
  'not_activated',
  'unknown_account',
  'unknown_company',
  'deactivated',
  'disabled',
  'user_deactivated',
  'user_deleted',
  'recovery_code',
  'reset_by_admin',
] as const;

/** A security access event: a sign-in attempt, code check, password change, logout or impersonation (docs/api/audits.md). */
export const accessEventRow = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  /** The address typed or concerned, also when no such user exists (then `userId` and `userName` are null). */
  email: z.string().nullable(),
  /** The user's full name, else their email; null when no user is known. */
  userName: z.string().nullable(),
  event: z.enum(ACCESS_EVENT_KINDS),
  status: z.enum(ACCESS_EVENT_STATUSES),
  /** Why it failed or was blocked, or what ended a session. */
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The admin, on an impersonation. */
  impersonatorUserId: z.string().nullable(),
  impersonatorEmail: z.string().nullable(),
  createdAt: timestamp,
});
export type AccessEvent = z.infer<typeof accessEventRow>;

/** `GET /access/events/filter/props`: the users who have events, and the statuses present. */
export const accessEventFilterProps = z.object({ user: z.array(choice), status: z.array(choice) });

/** `GET /access/events/cards`: `signinsToday`, `failuresToday`, `blocked7Days`, `impersonations7Days`. */
export const accessEventCards = z.object({ cards: z.array(card) });

/** `GET /fetchDistinctEventStatus` (the old console's call): `{ message, statusValues }`, the statuses the company's events have. */
export const eventStatusesAnswer = z.object({ message: z.string(), statusValues: z.array(z.enum(ACCESS_EVENT_STATUSES)) });

export const accessEventsContract = defineContract({
  name: 'access-events',
  noun: { one: 'access event', many: 'access events' },
  row: accessEventRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'event', type: 'text', sortable: true },
    { source: 'status', type: 'status', sortable: true },
  ],
  routes: {
    list: '/access/events/{offset}/{limit}',
    filter: { path: '/access/events/filter/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/access/events/filter/props',
    cards: '/access/events/cards',
  },
  policy: { resource: 'accessEvents', label: 'Security access events', actions: ['read'], order: 9 },
  page: { id: 'access-events', title: 'Access events', url: '/access-events', group: 'administration', icon: 'policy', order: 19 },
});
