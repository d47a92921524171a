import { z } from 'zod';
import { choice, timestamp } from './answers';
import { defineAction, defineContract } from './define';

export const NOTIFICATION_STATUSES = ['unread', 'read'] as const;

/** An in-app notification, one per recipient (docs/api/notifications.md). */
export const notificationRow = z.object({
  id: z.string(),
  /** The recipient. */
  userId: z.string(),
  /** The recipient's full name, else their email. */
  userName: z.string().nullable(),
  /** `invitation_accepted`, `role_changed`, `job_failed`, … */
  type: z.string(),
  title: z.string(),
  message: z.string(),
  /** Where the console links it to. */
  link: z.string().nullable(),
  status: z.enum(NOTIFICATION_STATUSES),
  /** Who caused it; null for the system. */
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: timestamp,
  /** When it was first read. */
  readAt: timestamp.nullable(),
});
export type Notification = z.infer<typeof notificationRow>;

/** `GET /notification/options` */
export const notificationOptions = z.object({
  status: z.array(choice),
  /** The types present in the notifications the caller can see. */
  type: z.array(choice),
  /** The caller alone, or (with notifications/read) everyone of the company who has notifications. */
  user: z.array(choice),
  /** The people who caused the notifications the caller can see. */
  createdBy: z.array(choice),
});

/** `GET /notifications/count`: the caller's own, each count stopping at the lists' cap. */
export const notificationCounts = z.object({
  unread: z.number().int(),
  total: z.number().int(),
  /** False when a count stopped at the cap. */
  countExact: z.boolean(),
});

/** `PUT /notification`: how many were marked read. */
export const notificationsMarked = z.object({ updated: z.number().int() });

/** `PUT /notification/count`: the caller's notification to mark read. */
export const markReadBody = z.object({ notificationId: z.uuid({ error: 'must be a valid id' }) });

export const notificationsContract = defineContract({
  name: 'notifications',
  row: notificationRow,
  // What the lists order by (a refused `{field}` names them in this order) and search in.
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'readAt', type: 'datetime', sortable: true },
    { source: 'type', type: 'text', sortable: true },
    { source: 'title', type: 'text', sortable: true, searchable: true },
    { source: 'status', type: 'status', sortable: true },
    { source: 'message', type: 'longtext', searchable: true },
  ],
  routes: {
    list: '/notification/{offset}/{limit}',
    filter: { path: '/notification/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    search: '/notification/search/{offset}/{limit}/{search}',
    filterProps: '/notification/options',
  },
  policy: { resource: 'notifications', label: "Everyone's notifications", actions: ['read'], order: 7 },
  page: { id: 'notifications', title: 'Notifications', url: '/notifications', group: 'overview', icon: 'notifications', order: 1 },
  /** The app bar's calls, on the caller's own notifications whatever their policies. */
  actions: {
    counts: defineAction({
      path: '/notifications/count',
      method: 'GET',
      summary: 'Counts of your notifications, read and unread',
      data: notificationCounts,
    }),
    latest: defineAction({ path: '/notifications', method: 'GET', summary: 'Your latest notifications', data: z.array(notificationRow) }),
    markRead: defineAction({
      path: '/notification/count',
      method: 'PUT',
      summary: 'Mark one of your notifications as read',
      body: markReadBody,
      data: notificationRow,
    }),
    markAllRead: defineAction({
      path: '/notification',
      method: 'PUT',
      summary: 'Mark all your notifications as read',
      data: notificationsMarked,
    }),
  },
});
