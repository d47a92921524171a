import { defineResource } from '../../src/framework/types';
import { personText } from '../audits/PersonCell';
import { EndSessionButton } from './EndSessionButton';
import { SessionStatus, SessionUser, sessionState } from './SessionCells';
import { SESSION_END_REASONS, type Session } from '../../common/contract/sessions';
import { sessionsContract } from '../../common/contract/sessions';
export type { Session } from '../../common/contract/sessions';

/**
 * Sessions: who is signed in, from where, since when; open ones first (the spec's ASC
 * isDeleted), read-only but for "End session" on another user's open session. A user's name
 * leads to the list of their sessions (`/sessions?filter={"user":"<id>"}`); a user's page can
 * embed resources/sessions/UserSessionsPanel.
 */
export const sessions = defineResource<Session>({
  contract: sessionsContract,
  recordRepresentation: (session) => session.userName || session.email || session.id,
  messages: {
    en: {
      name: 'Session |||| Sessions',
      fields: {
        userName: 'User',
        ip: 'Address',
        createdAt: 'Started',
        lastSeenAt: 'Last seen',
        expiresAt: 'Expires',
        endedAt: 'Ended',
        isDeleted: 'Status',
        impersonatorEmail: 'Acting admin',
      },
      filters: { user: 'User', status: 'Status', search: 'Search sessions' },
      states: { active: 'Active', ended: 'Ended', pending: 'Signing in' },
      current: 'This session',
      of_user: 'Sessions of %{name}',
      end_reasons: {
        logout: 'Signed out',
        ended_by_admin: 'Ended by an admin',
        password_changed: 'Password changed',
        user_deactivated: 'User deactivated',
        replaced: 'Sign-in completed',
      },
      end: {
        button: 'End session',
        label: 'End session of %{name}',
        title: 'End this session of %{name}?',
        content: 'They are signed out of that device at their next action.',
        done: 'Session ended',
      },
      panel: {
        title: 'Sessions',
        all: 'All sessions of this user',
        empty: 'No sessions.',
      },
    },
  },
  fields: [
    {
      source: 'userName',
      type: 'text',
      render: (session) => <SessionUser session={session} />,
      exportValue: (session) => personText(session.userName, session.email),
    },
    { source: 'ip', type: 'text' },
    { source: 'userAgent', type: 'longtext' },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'lastSeenAt', type: 'datetime', sortable: true },
    { source: 'expiresAt', type: 'datetime', sortable: true, list: 'hidden' },
    { source: 'endedAt', type: 'datetime', sortable: true, list: 'hidden' },
    {
      source: 'endReason',
      type: 'select',
      list: 'hidden',
      choices: SESSION_END_REASONS.map((reason) => ({ id: reason, name: `resources.sessions.end_reasons.${reason}` })),
    },
    // The status column sorts by the server's isDeleted: open sessions first going up.
    {
      source: 'isDeleted',
      type: 'status',
      sortable: true,
      render: (session) => <SessionStatus session={session} />,
      exportValue: (session) => sessionState(session),
    },
    { source: 'impersonatorEmail', type: 'text' },
  ],
  // Exactly the spec's sessions filter.
  filters: [
    { source: 'user', type: 'autocomplete' },
    { source: 'status', type: 'select' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  can: { create: false, edit: false, show: false, delete: false, activate: false, export: true },
  list: { rowClick: false },
  actions: { record: [EndSessionButton] },
});
