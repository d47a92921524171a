import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { PersonCell, personText } from '../audits/PersonCell';
import { choicesOf, EVENT_STATUS_CHOICES } from './statuses';
import { ACCESS_EVENT_KINDS, ACCESS_EVENT_REASONS, accessEventsContract, type AccessEvent } from '../../common/contract/access-events';

export type { AccessEvent } from '../../common/contract/access-events';

/**
 * Security access events: every sign-in attempt, code check, password change or reset,
 * logout, impersonation and ended session, newest first, read-only. The status filter offers
 * the statuses present (`GET /fetchDistinctEventStatus`), read by the list view of its own.
 */
export const accessEvents = defineResource<AccessEvent>({
  contract: accessEventsContract,
  recordRepresentation: (event) => `${event.event} ${event.email ?? ''}`.trim(),
  messages: {
    en: {
      name: 'Access event |||| Security access events',
      fields: {
        createdAt: 'Time',
        userName: 'User',
        ip: 'Address',
        impersonatorEmail: 'Acting admin',
      },
      filters: { user: 'User', status: 'Status', search: 'Search events' },
      unknown_user: 'Unknown',
      statuses: { success: 'Success', failure: 'Failure', blocked: 'Blocked' },
      events: {
        signin: 'Sign-in',
        otp: 'Code check',
        otp_setup: 'Two-factor set-up',
        password_change: 'Password change',
        password_reset_request: 'Password reset request',
        password_reset: 'Password reset',
        password_create: 'Password created',
        logout: 'Sign-out',
        session_end: 'Session ended',
        impersonation: 'Impersonation',
        impersonation_end: 'Impersonation ended',
      },
      reasons: {
        bad_password: 'Wrong password',
        bad_temporary_password: 'Wrong temporary password',
        bad_code: 'Wrong code',
        replayed_code: 'Code already used',
        throttled: 'Too many attempts',
        ended_by_admin: 'Ended by an admin',
        otp_required: 'Code required',
        otp_setup_required: 'Two-factor set-up required',
        not_active: 'Account not active',
        not_activated: 'Account not activated',
        unknown_account: 'Unknown account',
        unknown_company: 'Unknown company',
        deactivated: 'Account deactivated',
        disabled: 'Disabled',
        user_deactivated: 'User deactivated',
        user_deleted: 'User removed',
        recovery_code: 'Recovery code used',
        reset_by_admin: 'Reset by an admin',
      },
    },
  },
  fields: [
    { source: 'createdAt', type: 'datetime' },
    {
      source: 'userName',
      type: 'text',
      render: (event) => <PersonCell name={event.userName} email={event.email} missing="resources.access-events.unknown_user" />,
      exportValue: (event) => personText(event.userName, event.email),
    },
    { source: 'event', type: 'select', choices: choicesOf('events', ACCESS_EVENT_KINDS) },
    {
      source: 'status',
      type: 'status',
      choices: EVENT_STATUS_CHOICES,
      colors: { success: 'success', failure: 'error', blocked: 'warning' },
    },
    // A reason the console has no text for shows as the server wrote it.
    { source: 'reason', type: 'select', choices: choicesOf('reasons', ACCESS_EVENT_REASONS) },
    { source: 'ip', type: 'text' },
    { source: 'userAgent', type: 'longtext', list: 'hidden' },
    { source: 'impersonatorEmail', type: 'text' },
  ],
  // Exactly the spec's access event filter.
  filters: [
    { source: 'user', type: 'autocomplete' },
    { source: 'status', type: 'multiselect', choices: EVENT_STATUS_CHOICES },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  can: { create: false, edit: false, delete: false, activate: false, export: true },
  list: { rowClick: 'show' },
  views: {
    list: lazy(() => import('./AccessEventsList')),
    show: lazy(() => import('./AccessEventShow')),
  },
});
