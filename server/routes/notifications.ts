import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer, listAnswer } from '../../common/contract/answers';
import { sent } from '../../common/contract/answers/sent';
import {
  notificationCounts,
  notificationOptions as notificationOptionsAnswer,
  notificationRow,
  notificationsMarked,
} from '../../common/contract/notifications';
import { requireAuth, type AuthContext } from '../auth/guard';
import { isAllowed } from '../auth/policies';
import { notFound } from '../http/errors';
import { pageParams } from '../http/lists';
import { uuidParam } from '../http/schemas';
import {
  DEFAULT_SORT,
  latestOwn,
  listNotifications,
  markAllRead,
  markOneRead,
  notificationFilterBody,
  notificationOptions,
  notificationSortParams,
  ownCounts,
  type Reader,
} from '../notifications/notifications';

const TAGS = ['Notifications'];
const notificationList = sent(listAnswer(notificationRow));
const markOneBody = z.object({ notificationId: uuidParam });
const searchParams = pageParams.extend({
  searchText: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
});

/**
 * In-app notifications. Everyone reads and marks their own; the notifications/read policy (admins
 * hold it) lets one list everyone's in the company. Marking read is the recipient's own state,
 * not a change to the company's data, so it writes no system audit.
 */
export async function notificationRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  const readerOf = async (auth: AuthContext): Promise<Reader> => ({
    companyId: auth.companyId,
    userId: auth.userId,
    seesEveryone: await isAllowed(db, auth, 'notifications', 'read'),
  });

  api.get(
    '/notification/:offset/:limit',
    { schema: { summary: 'List the notifications', tags: TAGS, params: pageParams, response: { 200: notificationList } } },
    async (request) => {
      const reader = await readerOf(requireAuth(request));
      const { offset, limit } = request.params;
      return { message: 'Notifications', data: await listNotifications(db, reader, {}, DEFAULT_SORT, offset, limit) };
    },
  );

  api.get(
    '/notification/search/:offset/:limit/:searchText',
    { schema: { summary: 'Search the notifications', tags: TAGS, params: searchParams, response: { 200: notificationList } } },
    async (request) => {
      const reader = await readerOf(requireAuth(request));
      const { offset, limit, searchText } = request.params;
      return { message: 'Notifications', data: await listNotifications(db, reader, { search: searchText }, DEFAULT_SORT, offset, limit) };
    },
  );

  api.post(
    '/notification/filter/:offset/:limit/:order/:field',
    {
      schema: {
        summary: 'Filter and sort the notifications',
        tags: TAGS,
        params: pageParams.extend(notificationSortParams.shape),
        body: notificationFilterBody,
        response: { 200: notificationList },
      },
    },
    async (request) => {
      const reader = await readerOf(requireAuth(request));
      const { offset, limit, order, field } = request.params;
      return { message: 'Notifications', data: await listNotifications(db, reader, request.body, { order, field }, offset, limit) };
    },
  );

  api.post(
    '/notification/filter/:offset/:limit',
    {
      schema: {
        summary: 'Filter the notifications',
        tags: TAGS,
        params: pageParams,
        body: notificationFilterBody,
        response: { 200: notificationList },
      },
    },
    async (request) => {
      const reader = await readerOf(requireAuth(request));
      const { offset, limit } = request.params;
      return { message: 'Notifications', data: await listNotifications(db, reader, request.body, DEFAULT_SORT, offset, limit) };
    },
  );

  api.get(
    '/notification/options',
    { schema: { summary: 'Choices of the notification filters', tags: TAGS, response: { 200: sent(answer(notificationOptionsAnswer)) } } },
    async (request) => {
      const reader = await readerOf(requireAuth(request));
      return { message: 'Notification filters', data: await notificationOptions(db, reader) };
    },
  );

  api.get(
    '/notifications/count',
    {
      schema: { summary: 'Counts of your notifications, read and unread', tags: TAGS, response: { 200: sent(answer(notificationCounts)) } },
    },
    async (request) => {
      const { companyId, userId } = requireAuth(request);
      return { message: 'Notification count', data: await ownCounts(db, companyId, userId) };
    },
  );

  api.get(
    '/notifications',
    { schema: { summary: 'Your latest notifications', tags: TAGS, response: { 200: sent(answer(z.array(notificationRow))) } } },
    async (request) => {
      const { companyId, userId } = requireAuth(request);
      return { message: 'Latest notifications', data: await latestOwn(db, companyId, userId) };
    },
  );

  api.put(
    '/notification',
    { schema: { summary: 'Mark all your notifications as read', tags: TAGS, response: { 200: sent(answer(notificationsMarked)) } } },
    async (request) => {
      const { companyId, userId } = requireAuth(request);
      const updated = await markAllRead(db, companyId, userId);
      return { message: updated === 1 ? '1 notification marked as read' : `${updated} notifications marked as read`, data: { updated } };
    },
  );

  api.put(
    '/notification/count',
    {
      schema: {
        summary: 'Mark one of your notifications as read',
        tags: TAGS,
        body: markOneBody,
        response: { 200: sent(answer(notificationRow)) },
      },
    },
    async (request) => {
      const { companyId, userId } = requireAuth(request);
      const row = await markOneRead(db, companyId, userId, request.body.notificationId);
      if (!row) throw notFound('Notification');
      return { message: 'Notification marked as read', data: row };
    },
  );
}
