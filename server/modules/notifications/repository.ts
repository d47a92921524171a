import { notificationsContract } from '../../../common/contract/notifications';
import { isAllowed } from '../../auth/policies';
import {
  listNotifications,
  notificationOptions,
  type NotificationFilter,
  type NotificationRow,
  type Reader,
} from '../../notifications/notifications';
import type { EntityRepository, EntityScope, PageRequest } from '../../platform/entity-routes';

/**
 * Whose notifications the caller sees: their own, or with the notifications/read policy (admins
 * hold it) everyone's in the company. The lists are open to every signed-in user; the policy
 * only widens them.
 */
async function readerOf({ db, auth }: EntityScope): Promise<Reader> {
  return {
    companyId: auth.companyId,
    userId: auth.userId,
    seesEveryone: await isAllowed(db, auth, notificationsContract.policy.resource, 'read'),
  };
}

async function listed(scope: EntityScope, filter: NotificationFilter, page: PageRequest) {
  return listNotifications(scope.db, await readerOf(scope), filter, page.sort, page.offset, page.limit);
}

/** How notifications are listed: only ever those the caller may see, of the caller's company. */
export const notificationRepository: EntityRepository<NotificationRow> = {
  list: (scope, page) => listed(scope, {}, page),
  filter: (scope, body, page) => listed(scope, body as NotificationFilter, page),
  search: (scope, text, page) => listed(scope, { search: text }, page),
  filterProps: async (scope) => notificationOptions(scope.db, await readerOf(scope)),
};
