import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, count, desc, eq } from 'drizzle-orm';
import { z, type ZodType } from 'zod';
import { outboxListAnswer, outboxMailAnswer } from '../../common/contract/outbox';
import { mailOutbox } from '../db/schema';
import { requireAuth } from '../auth/guard';
import { notFound } from '../http/errors';
import { limitParam, offsetParam, uuidParam } from '../http/schemas';
import { inlined } from '../http/lists';

const TAGS = ['Mail outbox'];

/**
 * What a handler hands over for the answer its route declares: that shape, with dates as Date
 * objects (JSON writes them as ISO strings) and the contract's enums as the plain text the columns
 * are typed with. The test servers hold every answer to its schema (server/platform/answers.ts);
 * this keeps the rest of the shape checked by the compiler.
 */
type Built<T> = T extends string
  ? string | Date
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Built<Item>>
    : T extends object
      ? { [K in keyof T]: Built<T[K]> }
      : T;
const built = <S extends ZodType>(_schema: S, answer: Built<z.output<S>>) => answer as z.output<S>;

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
        response: { 200: outboxListAnswer },
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
      return built(outboxListAnswer, { message: 'Mail outbox', data: { rows, count: total } });
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
        response: { 200: outboxMailAnswer },
      },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [mail] = await api.ctx.db
        .select({ ...columns, text: mailOutbox.text, html: mailOutbox.html })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.companyId, companyId), eq(mailOutbox.id, request.params.id)));
      if (!mail) throw notFound('Mail');
      return built(outboxMailAnswer, { message: 'Mail', data: mail });
    },
  );
}
