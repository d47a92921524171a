import { z } from 'zod';
import { answer, card, choice, listAnswer, timestamp } from './answers';
import { defineContract } from './define';

/** The sessions filter's statuses: `active` until it is ended or expires, `ended` after. */
export const SESSION_STATUSES = ['active', 'ended'] as const;

/** How a session ended (`endReason`); null while it is open or when it only expired. */
export const SESSION_END_REASONS = ['logout', 'ended_by_admin', 'password_changed', 'user_deactivated', 'replaced'] as const;

/** A session as `GET /sessions/…` and the filter answer it (docs/api/sessions.md). */
export const sessionRow = z.object({
  id: z.string(),
  userId: z.string(),
  email: z.string().nullable(),
  userName: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** How far the sign-in got: fully in, or waiting for a code or its set-up. */
  stage: z.enum(['full', 'otp', 'otp_setup']),
  createdAt: timestamp,
  /** Refreshed at most once a minute while the session is used. */
  lastSeenAt: timestamp,
  expiresAt: timestamp,
  endedAt: timestamp.nullable(),
  endReason: z.enum(SESSION_END_REASONS).nullable(),
  /** Over: ended, or expired without anyone ending it (computed by the server). */
  isDeleted: z.boolean(),
  /** Signed in now: a full session neither ended nor expired. */
  active: z.boolean(),
  /** On a session an admin opened as this user: the admin. */
  impersonatorUserId: z.string().nullable(),
  /** The acting admin's email. */
  impersonatorEmail: z.string().nullable(),
  /** The caller's own session. */
  current: z.boolean(),
});

export type Session = z.infer<typeof sessionRow>;

/** `{ message, data: { rows, count, countExact } }` of sessions. */
export const sessionListAnswer = listAnswer(sessionRow);

/** `GET /session/filter/props`: the users who have a session, and the two statuses (`active`, `ended`). */
export const sessionFilterPropsAnswer = answer(z.object({ user: z.array(choice), status: z.array(choice) }));

/** `GET /session/cards`: `openNow`, `signInsToday`, `endedByAdmin7Days`, `impersonationsOpen`. */
export const sessionCardsAnswer = answer(z.object({ cards: z.array(card) }));

export const sessionsContract = defineContract({
  name: 'sessions',
  row: sessionRow,
  // What the filter orders by (a refused `{field}` names them in this order).
  fields: [
    { source: 'isDeleted', type: 'status', sortable: true },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'lastSeenAt', type: 'datetime', sortable: true },
    { source: 'expiresAt', type: 'datetime', sortable: true },
    { source: 'endedAt', type: 'datetime', sortable: true },
  ],
  routes: {
    list: '/session/{offset}/{limit}',
    filter: { path: '/session/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'isDeleted', order: 'ASC' } },
    filterProps: '/session/filter/props',
    cards: '/session/cards',
    // Ending a session is this resource's delete (policy sessions/delete): `PUT /session/logout { sessionId }`,
    // offered as the "End session" action rather than the generic delete button.
    delete: { path: '/session/logout', method: 'PUT', idField: 'sessionId' },
  },
  related: {
    // One user's sessions, open ones first, then the newest (a user's page shows them).
    user: '/session/user/{id}?offset={offset}&limit={limit}',
  },
  policy: { resource: 'sessions', label: 'Sessions', actions: ['read', 'delete'], order: 10 },
  page: { id: 'sessions', title: 'Sessions', url: '/sessions', group: 'administration', icon: 'devices', order: 17 },
  audit: { model: 'session' },
});
