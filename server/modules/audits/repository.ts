import type { EntityRepository } from '../../platform/entity-routes';
import { auditCards, auditProps, listAudits, type AuditFilter, type AuditRow } from '../../audits/system-audits';

/** How system audits are read: the caller's company's entries only. Nothing changes them. */
export const auditRepository: EntityRepository<AuditRow> = {
  list: ({ db, auth }, page) => listAudits(db, auth.companyId, {}, page.offset, page.limit),
  // The path's offset and limit win over those of the body (the spec's filter table lists both).
  filter: ({ db, auth }, body, page) => listAudits(db, auth.companyId, body as AuditFilter, page.offset, page.limit, page.sort),
  filterProps: ({ db, auth }) => auditProps(db, auth.companyId),
  cards: async ({ db, auth }) => ({ cards: await auditCards(db, auth.companyId) }),
};
