import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { PersonCell, personText } from '../audits/PersonCell';
import { choicesOf, EVENT_STATUS_CHOICES } from './statuses';
import { accessEventsContract } from '../../common/contract/access-events';

/** A security access event (`GET /access/events/{offset}/{limit}`, docs/api/audits.md). */
export interface AccessEvent {
  id: string;
  userId: string | null;
  email: string | null;
  userName: string | null;
  event: string;
  status: 'success' | 'failure' | 'blocked';
  reason: string | null;
  ip: string | null;
  userAgent: string | null;
  impersonatorUserId: string | null;
  impersonatorEmail: string | null;
  createdAt: string;
}

const EVENTS = [
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

const REASONS = [
  'bad_password',
  'bad_temporary_password',
  'throttled',
  'ended_by_admin',
  'otp_required',
  'not_active',
  'not_activated',
  'unknown_account',
  'deactivated',
  'disabled',
  'user_deactivated',
  'user_deleted',
] as const;

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
        throttled: 'Too many attempts',
        ended_by_admin: 'Ended by an admin',
        otp_required: 'Code required',
        not_active: 'Account not active',
        not_activated: 'Account not activated',
        unknown_account: 'Unknown account',
        deactivated: 'Account deactivated',
        disabled: 'Disabled',
        user_deactivated: 'User deactivated',
        user_deleted: 'User removed',
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
    { source: 'event', type: 'select', choices: choicesOf('events', EVENTS) },
    {
      source: 'status',
      type: 'status',
      choices: EVENT_STATUS_CHOICES,
      colors: { success: 'success', failure: 'error', blocked: 'warning' },
    },
    // A reason the console has no text for shows as the server wrote it.
    { source: 'reason', type: 'select', choices: choicesOf('reasons', REASONS) },
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
