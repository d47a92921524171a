import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, count, eq, isNull, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { messageAnswer } from '../../common/contract/answers';
import { columnChoicesAnswer, savedColumnsAnswer } from '../../common/contract/answers/list-columns';
import { savedViewAnswer, savedViewBody, savedViewsAnswer } from '../../common/contract/answers/list-views';
import { sent } from '../platform/answers';
import { recordAudit } from '../audit';
import { requireAuth, type AuthContext } from '../auth/guard';
import { listColumnChoices, listSavedViews } from '../db/schema';
import { isUniqueViolation } from '../http/database-errors';
import { conflict, forbidden, notFound } from '../http/errors';
import { uuidParam } from '../http/schemas';

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
const viewParams = listKeyParams.extend({ id: uuidParam });

/** A user keeps at most this many views of one list. */
const VIEWS_PER_LIST_MAX = 50;
const VIEW_NAME_TAKEN = 'name: you already have a view of this list with this name';

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
  const viewColumns = {
    id: listSavedViews.id,
    name: listSavedViews.name,
    filter: listSavedViews.filter,
    sort: listSavedViews.sort,
    hidden: listSavedViews.hidden,
    order: listSavedViews.order,
    createdAt: listSavedViews.createdAt,
  };
  const viewsOf = (auth: AuthContext, listKey: string) =>
    and(eq(listSavedViews.companyId, auth.companyId), eq(listSavedViews.userId, auth.userId), eq(listSavedViews.listKey, listKey));

  api.get(
    '/lists/:listKey/views',
    {
      config: { apiKeys: false },
      schema: { summary: 'Your saved views of a list', tags: TAGS, params: listKeyParams, response: { 200: sent(savedViewsAnswer) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const data = await db
        .select(viewColumns)
        .from(listSavedViews)
        .where(viewsOf(auth, request.params.listKey))
        .orderBy(asc(sql`lower(${listSavedViews.name})`));
      return { message: 'Saved views', data };
    },
  );

  api.post(
    '/lists/:listKey/views',
    {
      config: { apiKeys: false },
      schema: {
        summary: 'Save a view of a list (its filters, sort and columns) under a name',
        tags: TAGS,
        params: listKeyParams,
        body: savedViewBody,
        response: { 201: sent(savedViewAnswer) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { listKey } = request.params;
      const { name, filter, sort, hidden, order } = request.body;
      const view = {
        name,
        filter,
        sort: sort ?? null,
        hidden: hidden ? [...new Set(hidden)] : null,
        order: order ? [...new Set(order)] : null,
      };
      try {
        const saved = await db.transaction(async (tx) => {
          const [{ views }] = await tx.select({ views: count() }).from(listSavedViews).where(viewsOf(auth, listKey));
          if (views >= VIEWS_PER_LIST_MAX) throw conflict(`You have ${VIEWS_PER_LIST_MAX} views of this list: delete one first`);
          const [row] = await tx
            .insert(listSavedViews)
            .values({ companyId: auth.companyId, userId: auth.userId, listKey, ...view })
            .returning(viewColumns);
          await recordAudit(tx, request, {
            companyId: auth.companyId,
            model: 'list_view',
            operation: 'create',
            recordId: row.id,
            changes: { after: { listKey, ...view } },
          });
          return row;
        });
        return reply.code(201).send({ message: `View "${name}" saved`, data: saved });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict(VIEW_NAME_TAKEN);
        throw err;
      }
    },
  );

  api.delete(
    '/lists/:listKey/views/:id',
    {
      config: { apiKeys: false },
      schema: { summary: 'Delete one of your saved views of a list', tags: TAGS, params: viewParams, response: { 200: messageAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { listKey, id } = request.params;
      const name = await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(listSavedViews)
          .where(and(viewsOf(auth, listKey), eq(listSavedViews.id, id)))
          .returning({ name: listSavedViews.name });
        if (!gone) throw notFound('View');
        await recordAudit(tx, request, {
          companyId: auth.companyId,
          model: 'list_view',
          operation: 'delete',
          recordId: id,
          changes: { before: { listKey, name: gone.name } },
        });
        return gone.name;
      });
      return { message: `View "${name}" deleted` };
    },
  );
}
