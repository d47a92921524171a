import type { FastifyInstance } from 'fastify';
import { auditCards, auditFilterProps, auditsContract } from '../../../common/contract/audits';
import { auditFilterBody, type AuditRow } from '../../audits/system-audits';
import { keepListStatisticsFresh } from '../../audits/statistics';
import type { EntityModule } from '../../platform/entity-routes';
import { auditRepository } from './repository';

/**
 * System audits: a read-only list of what was changed, by whom, served from their contract under
 * the audits policy: the list `/system/audits/{offset}/{limit}`, the filter
 * `/system/audits/filter/{offset}/{limit}`, its choices `/system/audits/filter/props` and the
 * cards `/system/audits/cards`.
 */
export const auditsModule: EntityModule<AuditRow> = {
  contract: auditsContract,
  repository: auditRepository,
  bodies: { filter: auditFilterBody },
  calls: {
    filterProps: { summary: 'Choices of the system-audit filters', message: 'System audit filters', data: auditFilterProps },
    cards: { summary: 'Counts of system audits', message: 'System audit cards', data: auditCards },
  },
  routes(app: FastifyInstance) {
    // The lists of audits, access events, notifications and sessions read big tables: on the embedded database their planner statistics are kept here.
    keepListStatisticsFresh(app, app.ctx.db);
  },
};
