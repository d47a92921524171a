import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { outboxListAnswer, outboxMailAnswer } from '../../common/contract/outbox';
import { mailOutbox } from '../db/schema';
import { requireAuth } from '../auth/guard';
import { notFound } from '../http/errors';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { inlined } from '../http/lists';
import { sent } from '../platform/answers';

const TAGS = ['Mail outbox'];

const columns = {
  id: mailOutbox.id,
  toAddress: mailOutbox.toAddress,
  subject: mailOutbox.subject,
  kind: mailOutbox.kind,
  status: mailOutbox.status,
  error: mailOutbox.error,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
};

/**
 * The mail outbox: every mail the server composed for this company. With no SMTP server
 * configured this is where admins read activation and reset mails.
 */
export async function outboxRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/mail/outbox/:offset/:limit',
    {
      config: { adminOnly: true },
      schema: {
        summary: 'List the mails of the outbox, newest first',
        tags: TAGS,
        params: z.object({ offset: offsetParam, limit: limitParam }),
        response: { 200: sent(outboxListAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      const where = eq(mailOutbox.companyId, companyId);
      const [rows, [{ total }]] = await Promise.all([
        api.ctx.db
          .select(columns)
          .from(mailOutbox)
          .where(where)
          .orderBy(desc(mailOutbox.createdAt))
          .offset(inlined(offset))
          .limit(inlined(limit)),
        api.ctx.db.select({ total: count() }).from(mailOutbox).where(where),
      ]);
      return { message: 'Mail outbox', data: { rows, count: total } };
    },
  );

  api.get(
    '/mail/outbox/:id',
    {
      config: { adminOnly: true },
      schema: {
        summary: 'Read a mail of the outbox',
        tags: TAGS,
        params: z.object({ id: uuidParam }),
        response: { 200: sent(outboxMailAnswer) },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [mail] = await api.ctx.db
        .select({ ...columns, text: mailOutbox.text, html: mailOutbox.html })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.id, request.params.id)));
      if (!mail) throw notFound('Mail');
      return { message: 'Mail', data: mail };
    },
  );
}
