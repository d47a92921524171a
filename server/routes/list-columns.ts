import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, isNull, or } from 'drizzle-orm';
import { z } from 'zod';
import { messageAnswer } from '../../common/contract/answers';
import { columnChoicesAnswer, savedColumnsAnswer } from '../../common/contract/answers/list-columns';
import { sent } from '../platform/answers';
import { recordAudit } from '../audit';
import { requireAuth, type AuthContext } from '../auth/guard';
import { listColumnChoices } from '../db/schema';
import { forbidden } from '../http/errors';

const TAGS = ['List columns'];
const listKeyParams = z.object({
  listKey: z.string().regex(/^[a-zA-Z0-9._-]{1,100}$/, 'must be 1 to 100 letters, digits, dots, underscores or hyphens'),
});
const columnNames = z
  .array(z.string().min(1, 'may not hold an empty name').max(100, 'may hold names of at most 100 characters'))
  .max(100, 'may hold at most 100 columns');
const scopeField = z.enum(['user', 'tenant'], { error: 'must be "user" or "tenant"' });
const choiceBody = z.object({ scope: scopeField.default('user'), hidden: columnNames, order: columnNames.nullish() }).strict();
const scopeQuery = z.object({ scope: scopeField.default('user') });

type Scope = z.infer<typeof scopeField>;

interface StoredChoice {
  hidden: string[];
  order: string[] | null;
}

/**
 * Column choices of the console's lists: the tenant's default and each user's own. The console
 * loads them all at sign-in (react-admin's Store is wiped at logout, so it cannot keep them).
 */
export async function listColumnRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  function ownerOf(auth: AuthContext, scope: Scope) {
    if (scope === 'tenant' && !auth.isAdmin) throw forbidden();
    return scope === 'tenant' ? null : auth.userId;
  }
  const rowOf = (auth: AuthContext, listKey: string, userId: string | null) =>
    and(
      eq(listColumnChoices.companyId, auth.companyId),
      eq(listColumnChoices.listKey, listKey),
      userId ? eq(listColumnChoices.userId, userId) : isNull(listColumnChoices.userId),
    );

  api.get(
    '/lists/columns',
    {
      config: { apiKeys: false },
      schema: { summary: 'Your column choices of every list, with the defaults', tags: TAGS, response: { 200: sent(columnChoicesAnswer) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const rows = await db
        .select()
        .from(listColumnChoices)
        .where(
          and(
            eq(listColumnChoices.companyId, auth.companyId),
            or(isNull(listColumnChoices.userId), eq(listColumnChoices.userId, auth.userId)),
          ),
        );
      const data: Record<string, { tenant: StoredChoice | null; user: StoredChoice | null }> = {};
      for (const row of rows) {
        const entry = (data[row.listKey] ??= { tenant: null, user: null });
        entry[row.userId ? 'user' : 'tenant'] = { hidden: row.hidden, order: row.order };
      }
      return { message: 'Column choices', data };
    },
  );

  api.put(
    '/lists/:listKey/columns',
    {
      config: { apiKeys: false },
      schema: {
        summary: "Save the columns of a list (yours, or everyone's default)",
        tags: TAGS,
        params: listKeyParams,
        body: choiceBody,
        response: { 200: sent(savedColumnsAnswer) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { listKey } = request.params;
      const { scope, hidden, order } = request.body;
      const userId = ownerOf(auth, scope);
      const choice = { hidden: [...new Set(hidden)], order: order ? [...new Set(order)] : null };
      await db.transaction(async (tx) => {
        // One row per list and owner (a unique index over coalesce(user_id, …) holds that).
        await tx.delete(listColumnChoices).where(rowOf(auth, listKey, userId));
        await tx.insert(listColumnChoices).values({ companyId: auth.companyId, listKey, userId, ...choice, updatedBy: auth.userId });
        // The tenant default changes what everyone sees: worth an audit entry. A user's own choice is not.
        if (scope === 'tenant') {
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'list_columns',
            operation: 'update',
            recordId: listKey,
            changes: { after: choice },
          });
        }
      });
      return { message: scope === 'tenant' ? 'Saved as the default columns for everyone' : 'Columns saved', data: choice };
    },
  );

  api.delete(
    '/lists/:listKey/columns',
    {
      config: { apiKeys: false },
      schema: {
        summary: 'Put the columns of a list back to the default',
        tags: TAGS,
        params: listKeyParams,
        querystring: scopeQuery,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { listKey } = request.params;
      const { scope } = request.query;
      const userId = ownerOf(auth, scope);
      await db.transaction(async (tx) => {
        const removed = await tx
          .delete(listColumnChoices)
          .where(rowOf(auth, listKey, userId))
          .returning({ id: listColumnChoices.id });
        if (scope === 'tenant' && removed.length > 0) {
          await recordAudit(tx, request, { companyId: auth.companyId, model: 'list_columns', operation: 'delete', recordId: listKey });
        }
      });
      return { message: scope === 'tenant' ? 'The default columns are back to the standard ones' : 'Columns are back to the default' };
    },
  );
}
