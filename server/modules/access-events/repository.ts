import type { EntityRepository } from '../../platform/entity-routes';
import {
  accessEventCards,
  accessEventProps,
  listAccessEvents,
  type AccessEventFilter,
  type AccessEventRow,
} from '../../audits/access-events';

/** How security access events are read: the caller's company's events only. Nothing changes them. */
export const accessEventRepository: EntityRepository<AccessEventRow> = {
  list: ({ db, auth }, page) => listAccessEvents(db, auth.companyId, {}, page.offset, page.limit),
  filter: ({ db, auth }, body, page) => listAccessEvents(db, auth.companyId, body as AccessEventFilter, page.offset, page.limit, page.sort),
  filterProps: ({ db, auth }) => accessEventProps(db, auth.companyId),
  cards: async ({ db, auth }) => ({ cards: await accessEventCards(db, auth.companyId) }),
};
