import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../../common/contract/answers';
import { sent } from '../../platform/answers';
import {
  notificationCounts,
  notificationOptions,
  notificationRow,
  notificationsContract,
  notificationsMarked,
} from '../../../common/contract/notifications';
import { requireAuth } from '../../auth/guard';
import { notFound } from '../../http/errors';
import { uuidParam } from '../../http/schemas';
import {
  latestOwn,
  markAllRead,
  markOneRead,
  notificationFilterBody,
  ownCounts,
  type NotificationRow,
} from '../../notifications/notifications';
import type { EntityModule } from '../../platform/entity-routes';
import { notificationRepository } from './repository';

const TAGS = ['Notifications'];
const markOneBody = z.object({ notificationId: uuidParam });

/**
 * In-app notifications, served from their contract to every signed-in user: the list
 * `/notification/{offset}/{limit}`, the search `/notification/search/{offset}/{limit}/{searchText}`
 * (the text keeps the name clients and API-key grants know), the filter
 * `/notification/filter/{offset}/{limit}/{order}/{field}` (also answered without its sort) and its
 * choices `/notification/options`. Everyone reads their own; the notifications/read policy lets
 * one list everyone's in the company. Beside them the app bar's calls, on the caller's own
 * whatever their policies: the counts, the latest, and marking read. Marking read is the
 * recipient's own state, not a change to the company's data, so it writes no system audit.
 */
export const notificationsModule: EntityModule<NotificationRow> = {
  contract: notificationsContract,
  repository: notificationRepository,
  bodies: { filter: notificationFilterBody },
  access: 'signed-in',
  params: { search: 'searchText' },
  unsortedFilter: true,
  calls: {
    filterProps: { summary: 'Choices of the notification filters', message: 'Notification filters', data: notificationOptions },
  },
  routes(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const { db } = api.ctx;

    api.get(
      '/notifications/count',
      {
        schema: {
          summary: 'Counts of your notifications, read and unread',
          tags: TAGS,
          response: { 200: sent(answer(notificationCounts)) },
        },
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
  },
};
