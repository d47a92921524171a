import type { FastifyInstance } from 'fastify';
import { notificationOptions, notificationsContract } from '../../../common/contract/notifications';
import { notFound } from '../../http/errors';
import {
  latestOwn,
  markAllRead,
  markOneRead,
  notificationFilterBody,
  ownCounts,
  type NotificationRow,
} from '../../notifications/notifications';
import { actionRoute } from '../../platform/action-route';
import type { RouteBase } from '../../platform/answer-route';
import type { EntityModule } from '../../platform/entity-routes';
import { notificationRepository } from './repository';

const TAGS = ['Notifications'];
const { actions } = notificationsContract;

/**
 * In-app notifications, served from their contract to every signed-in user: the list
 * `/notification/{offset}/{limit}`, the search `/notification/search/{offset}/{limit}/{searchText}`
 * (the text keeps the name clients and API-key grants know), the filter
 * `/notification/filter/{offset}/{limit}/{order}/{field}` (also answered without its sort) and its
 * choices `/notification/options`. Everyone reads their own; the notifications/read policy lets
 * one list everyone's in the company. Beside them the app bar's calls, the contract's actions, on
 * the caller's own whatever their policies: the counts `/notifications/count`, the latest
 * `/notifications`, marking one read `/notification/count` and all of them `/notification`.
 * Marking read is the recipient's own state, not a change to the company's data, so it writes no
 * system audit.
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
    const { db } = app.ctx;
    const signedIn: RouteBase = { config: {}, tags: TAGS };

    actionRoute(app, signedIn, actions.counts, async ({ auth: { companyId, userId } }) => ({
      message: 'Notification count',
      data: await ownCounts(db, companyId, userId),
    }));

    actionRoute(app, signedIn, actions.latest, async ({ auth: { companyId, userId } }) => ({
      message: 'Latest notifications',
      data: await latestOwn(db, companyId, userId),
    }));

    actionRoute(app, signedIn, actions.markAllRead, async ({ auth: { companyId, userId } }) => {
      const updated = await markAllRead(db, companyId, userId);
      return { message: updated === 1 ? '1 notification marked as read' : `${updated} notifications marked as read`, data: { updated } };
    });

    actionRoute(app, signedIn, actions.markRead, async ({ auth: { companyId, userId }, body }) => {
      const row = await markOneRead(db, companyId, userId, body.notificationId);
      if (!row) throw notFound('Notification');
      return { message: 'Notification marked as read', data: row };
    });
  },
};
