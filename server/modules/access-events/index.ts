import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessEventCards,
  accessEventFilterProps,
  accessEventsContract,
  eventStatusesAnswer,
} from '../../../common/contract/access-events';
import { sent } from '../../platform/answers';
import { requireAuth } from '../../auth/guard';
import { accessEventFilterBody, presentStatuses, type AccessEventRow } from '../../audits/access-events';
import type { EntityModule } from '../../platform/entity-routes';
import { accessEventRepository } from './repository';

const TAG = 'Security access events';

/**
 * Security access events: a read-only list of every sign-in, code check, password change and
 * impersonation, served from their contract under the accessEvents policy: the list
 * `/access/events/{offset}/{limit}`, the filter `/access/events/filter/{offset}/{limit}`, its
 * choices `/access/events/filter/props` and the cards `/access/events/cards`; beside them the old
 * console's statuses call.
 */
export const accessEventsModule: EntityModule<AccessEventRow> = {
  contract: accessEventsContract,
  repository: accessEventRepository,
  bodies: { filter: accessEventFilterBody },
  tag: TAG,
  calls: {
    list: { summary: 'List the security access events' },
    filter: { summary: 'Filter the security access events' },
    filterProps: { summary: 'Choices of the access-event filters', message: 'Access event filters', data: accessEventFilterProps },
    cards: { summary: 'Counts of security access events', message: 'Access event cards', data: accessEventCards },
  },
  routes(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    api.get(
      '/fetchDistinctEventStatus',
      {
        config: { policy: [accessEventsContract.policy.resource, 'read'] },
        schema: { summary: 'The statuses the access events have', tags: [TAG], response: { 200: sent(eventStatusesAnswer) } },
      },
      async (request) => {
        const { companyId } = requireAuth(request);
        return { message: 'Access event statuses', statusValues: await presentStatuses(api.ctx.db, companyId) };
      },
    );
  },
};
