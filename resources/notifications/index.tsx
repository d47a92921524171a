import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import type { Notification } from './api';
import { MarkReadButton, NotificationSender, NotificationTitle } from './cells';
import { MarkAllReadButton } from './MarkAllReadButton';
import { notificationsContract } from '../../common/contract/notifications';

export type { Notification } from './api';

/**
 * Notifications (docs/api/notifications.md): the caller's own, newest first; everyone's in the
 * company with the `notifications` read policy (admins), whose user column is then worth
 * showing. Read-only but for marking read; a notification's title opens its link. The app bar's
 * bell (src/app/layout/NotificationBell) shares its queries.
 */
export const notifications = defineResource<Notification>({
  contract: notificationsContract,
  recordRepresentation: 'title',
  messages: {
    en: {
      name: 'Notification |||| Notifications',
      fields: {
        createdByName: 'Sent by',
        createdAt: 'Received',
        userName: 'User',
        readAt: 'Read',
      },
      filters: {
        status: 'Status',
        user: 'User',
        type: 'Type',
        search: 'Search notifications',
        createdBy: 'Sent by',
      },
      statuses: { unread: 'Unread', read: 'Read' },
      system: 'System',
      mark_read: 'Mark read',
      mark_read_one: 'Mark read: %{title}',
      mark_all_read: 'Mark all read',
      bell: {
        label: 'Notifications',
        label_unread: 'Notifications: %{smart_count} unread |||| Notifications: %{smart_count} unread',
        title: 'Notifications',
        empty: 'No notifications yet.',
        loading: 'Loading notifications…',
        load_error: 'Notifications could not be loaded: %{message}',
        see_all: 'See all notifications',
        mark_all_read: 'Mark all read',
        mark_read: 'Mark read: %{title}',
        unread: 'Unread',
      },
    },
  },
  fields: [
    {
      source: 'title',
      type: 'text',
      sortable: true,
      render: (notification) => <NotificationTitle notification={notification} />,
      exportValue: (notification) => notification.title,
    },
    { source: 'message', type: 'longtext', serverText: true },
    { source: 'type', type: 'select', sortable: true, choices: { filterProps: 'type' } },
    {
      source: 'status',
      type: 'status',
      sortable: true,
      choices: [
        { id: 'unread', name: 'resources.notifications.statuses.unread' },
        { id: 'read', name: 'resources.notifications.statuses.read' },
      ],
      colors: { unread: 'info', read: 'default' },
    },
    {
      source: 'createdByName',
      type: 'text',
      render: (notification) => <NotificationSender notification={notification} />,
      exportValue: (notification) => notification.createdByName ?? '',
    },
    { source: 'createdAt', type: 'datetime', sortable: true },
    // Everyone's notifications (admins): whose each one is. Their own otherwise, hence hidden.
    { source: 'userName', type: 'text', list: 'hidden' },
    { source: 'readAt', type: 'datetime', sortable: true, list: 'hidden' },
  ],
  // Exactly the spec's notifications filter.
  filters: [
    { source: 'status', type: 'select' },
    { source: 'user', type: 'autocomplete' },
    { source: 'type', type: 'multiselect' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
    { source: 'createdBy', type: 'autocomplete' },
  ],
  can: { create: false, edit: false, show: false, delete: false, activate: false, export: true },
  list: { rowClick: false },
  actions: { record: [MarkReadButton], list: [MarkAllReadButton] },
  views: { list: lazy(() => import('./NotificationsList')) },
});
