import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, type AuthContext } from '../auth/guard';
import { isAllowed } from '../auth/policies';
import { badRequest, forbidden, notFound } from '../http/errors';
import { pageParams } from '../http/lists';
import { reportAnswer, reportAttachmentFile, reportListAnswer, shareAnswer } from '../../common/contract/answers/reports';
import { uuidParam } from '../http/schemas';
import { mailLinkBase } from '../mail/templates';
import {
  DEFAULT_REPORT_DAYS,
  DEFAULT_REPORT_FORMAT,
  REPORT_PERIOD_MAX_DAYS,
  isCalendarDay,
  makeReportBody,
  shareBody,
} from '../../common/schemas/reports';
import { addDays, parseCalendarDay, zonedInstant, type Period } from '../reports/period';
import { activeUsersByIds, findAttachment, findReport, listReports, makeReport, reportCompany, type Recipient } from '../reports/reports';
import { createShare, sharedWith } from '../reports/shares';
import { safeFileName } from '../reports/files';
import { sent } from '../platform/answers';

const TAGS = ['Reports and shares'];
const read = { policy: ['reports', 'read'] } as const;
const create = { policy: ['reports', 'create'] } as const;
const idParams = z.object({ id: uuidParam });
const attachmentParams = z.object({ id: uuidParam, attachmentId: uuidParam });
const DAY_MS = 86_400_000;

/**
 * The period of an on-demand report: the last 7 days by default; a calendar day is read on the
 * company's clocks (as the end, the whole day is included); an instant as it is given.
 */
export function requestedPeriod(body: { periodStart?: string; periodEnd?: string }, timeZone: string, now: Date): Period {
  const bound = (text: string, isEnd: boolean) => {
    if (!isCalendarDay(text)) return new Date(text);
    const day = parseCalendarDay(text);
    return zonedInstant(isEnd ? addDays(day, 1) : day, 0, timeZone);
  };
  if (body.periodEnd && !body.periodStart) throw badRequest('periodStart: is required when periodEnd is given');
  const end = body.periodEnd ? bound(body.periodEnd, true) : now;
  const start = body.periodStart ? bound(body.periodStart, false) : new Date(end.getTime() - DEFAULT_REPORT_DAYS * DAY_MS);
  if (start.getTime() > now.getTime()) throw badRequest('periodStart: must not be in the future');
  if (end.getTime() <= start.getTime()) throw badRequest('periodEnd: must be after periodStart');
  // An hour of slack: days read on the company's clocks may span a daylight-saving change.
  if (end.getTime() - start.getTime() > REPORT_PERIOD_MAX_DAYS * DAY_MS + 3_600_000)
    throw badRequest(`periodEnd: a report may cover at most ${REPORT_PERIOD_MAX_DAYS} days`);
  return { start, end };
}

/**
 * Reports (weekly, made by the server's sweep, or on demand) and shares (docs/api/reports.md).
 * Reading needs reports/read, making and sharing reports/create; a report shared with someone
 * can be read by them even without the policy, as they were mailed it anyway.
 */
export async function reportRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, mailer, config } = api.ctx;
  const services = { db, mailer, config };

  const mayRead = async (auth: AuthContext, reportId: string) => {
    if (await isAllowed(db, auth, 'reports', 'read')) return;
    if (!(await sharedWith(db, auth.companyId, reportId, auth.userId))) throw forbidden();
  };

  api.get(
    '/reports/:offset/:limit',
    {
      config: read,
      schema: { summary: 'List the reports, newest first', tags: TAGS, params: pageParams, response: { 200: sent(reportListAnswer) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return {
        message: 'Reports',
        data: await listReports(db, companyId, request.params.offset, request.params.limit),
      };
    },
  );

  api.get(
    '/reports/:id',
    { schema: { summary: 'Read a report and its figures', tags: TAGS, params: idParams, response: { 200: sent(reportAnswer) } } },
    async (request) => {
      const auth = requireAuth(request);
      await mayRead(auth, request.params.id);
      const report = await findReport(db, auth.companyId, request.params.id);
      if (!report) throw notFound('Report');
      return { message: 'Report', data: report };
    },
  );

  api.get(
    '/reports/:id/attachments/:attachmentId',
    {
      schema: {
        summary: "Download a report's attachment",
        tags: TAGS,
        params: attachmentParams,
        response: { 200: reportAttachmentFile },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      await mayRead(auth, request.params.id);
      const file = await findAttachment(db, auth.companyId, request.params.id, request.params.attachmentId);
      if (!file) throw notFound('Attachment');
      const name = safeFileName(file.fileName);
      return (
        reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`)
          .header('content-length', String(file.bytes.length))
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff')
          // The bytes go out as they are; the document calls them a binary string.
          .send(file.bytes as unknown as string)
      );
    },
  );

  api.post(
    '/reports',
    {
      config: create,
      schema: { summary: 'Make a report now and mail it', tags: TAGS, body: makeReportBody, response: { 201: sent(reportAnswer) } },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const company = await reportCompany(db, auth.companyId);
      if (!company) throw notFound('Company');
      const body = request.body;
      const now = new Date();
      const period = requestedPeriod(body, company.timezone, now);
      const chosen = await activeUsersByIds(db, auth.companyId, body.recipients ?? [], 'recipients');
      // The one who asked gets it too (an API key's access user alike).
      const [asker] = await activeUsersByIds(db, auth.companyId, [auth.userId], 'recipients').catch((): Recipient[] => []);
      const report = await makeReport(services, {
        company,
        kind: 'on_demand',
        period,
        format: body.format ?? DEFAULT_REPORT_FORMAT,
        extraRecipients: asker ? [asker, ...chosen] : chosen,
        createdBy: auth.userId,
        request,
        linkBase: mailLinkBase(config, request),
        now,
      });
      if (!report) throw new Error('an on-demand report was not stored');
      const mailed = report.recipients.length;
      reply.code(201);
      return { message: `Report made and mailed to ${mailed} ${mailed === 1 ? 'person' : 'people'}`, data: report };
    },
  );

  api.post(
    '/shares',
    {
      config: create,
      schema: {
        summary: 'Share a report or a list view with users of the company',
        tags: TAGS,
        body: shareBody,
        response: { 201: sent(shareAnswer) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const share = await createShare(services, request, auth, request.body, mailLinkBase(config, request));
      const count = share.recipientIds.length;
      reply.code(201);
      return { message: `Shared with ${count} ${count === 1 ? 'user' : 'users'}`, data: share };
    },
  );
}
