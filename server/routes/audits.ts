import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answer, listAnswer } from '../../common/contract/answers';
import { sent } from '../../common/contract/answers/sent';
import {
  accessEventCards as accessEventCardsAnswer,
  accessEventFilterProps,
  accessEventRow,
  eventStatusesAnswer,
} from '../../common/contract/access-events';
import { auditCards as auditCardsAnswer, auditFilterProps, auditRow } from '../../common/contract/audits';
import { requireAuth } from '../auth/guard';
import { pageParams } from '../http/lists';
import { accessEventCards, accessEventFilterBody, accessEventProps, listAccessEvents, presentStatuses } from '../audits/access-events';
import { auditCards, auditFilterBody, auditProps, listAudits } from '../audits/system-audits';
import { keepListStatisticsFresh } from '../audits/statistics';

const readAudits = { policy: ['audits', 'read'] } as const;
const readAccessEvents = { policy: ['accessEvents', 'read'] } as const;
const AUDIT_TAGS = ['System audits'];
const ACCESS_EVENT_TAGS = ['Security access events'];

const auditList = sent(listAnswer(auditRow));
const accessEventList = sent(listAnswer(accessEventRow));

/**
 * System audits and security access events: read-only lists of what was changed and of every
 * sign-in, code check, password change and impersonation. Nothing here changes them.
 */
export async function auditRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;
  keepListStatisticsFresh(app, db);

  // ---- System audits ---------------------------------------------------------------------------

  api.get(
    '/system/audits/:offset/:limit',
    {
      config: readAudits,
      schema: { summary: 'List the system audits', tags: AUDIT_TAGS, params: pageParams, response: { 200: auditList } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'System audits', data: await listAudits(db, companyId, {}, offset, limit) };
    },
  );

  // The path's offset and limit win over those of the body (the spec's filter table lists both).
  api.post(
    '/system/audits/filter/:offset/:limit',
    {
      config: readAudits,
      schema: {
        summary: 'Filter the system audits',
        tags: AUDIT_TAGS,
        params: pageParams,
        body: auditFilterBody,
        response: { 200: auditList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'System audits', data: await listAudits(db, companyId, request.body, offset, limit) };
    },
  );

  api.get(
    '/system/audits/filter/props',
    {
      config: readAudits,
      schema: { summary: 'Choices of the system-audit filters', tags: AUDIT_TAGS, response: { 200: sent(answer(auditFilterProps)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'System audit filters', data: await auditProps(db, companyId) };
    },
  );

  api.get(
    '/system/audits/cards',
    {
      config: readAudits,
      schema: { summary: 'Counts of system audits', tags: AUDIT_TAGS, response: { 200: sent(answer(auditCardsAnswer)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'System audit cards', data: { cards: await auditCards(db, companyId) } };
    },
  );

  // ---- Security access events ------------------------------------------------------------------

  api.get(
    '/access/events/:offset/:limit',
    {
      config: readAccessEvents,
      schema: {
        summary: 'List the security access events',
        tags: ACCESS_EVENT_TAGS,
        params: pageParams,
        response: { 200: accessEventList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Access events', data: await listAccessEvents(db, companyId, {}, offset, limit) };
    },
  );

  api.post(
    '/access/events/filter/:offset/:limit',
    {
      config: readAccessEvents,
      schema: {
        summary: 'Filter the security access events',
        tags: ACCESS_EVENT_TAGS,
        params: pageParams,
        body: accessEventFilterBody,
        response: { 200: accessEventList },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'Access events', data: await listAccessEvents(db, companyId, request.body, offset, limit) };
    },
  );

  api.get(
    '/access/events/filter/props',
    {
      config: readAccessEvents,
      schema: {
        summary: 'Choices of the access-event filters',
        tags: ACCESS_EVENT_TAGS,
        response: { 200: sent(answer(accessEventFilterProps)) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Access event filters', data: await accessEventProps(db, companyId) };
    },
  );

  api.get(
    '/access/events/cards',
    {
      config: readAccessEvents,
      schema: {
        summary: 'Counts of security access events',
        tags: ACCESS_EVENT_TAGS,
        response: { 200: sent(answer(accessEventCardsAnswer)) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Access event cards', data: { cards: await accessEventCards(db, companyId) } };
    },
  );

  api.get(
    '/fetchDistinctEventStatus',
    {
      config: readAccessEvents,
      schema: { summary: 'The statuses the access events have', tags: ACCESS_EVENT_TAGS, response: { 200: sent(eventStatusesAnswer) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'Access event statuses', statusValues: await presentStatuses(db, companyId) };
    },
  );
}
