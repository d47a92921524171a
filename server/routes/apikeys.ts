import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, exists, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import { answer, listAnswer, messageAnswer } from '../../common/contract/answers';
import { sent } from '../platform/answers';
import { apikeyCards, apikeyFilterProps, apikeyRow, createdApikey } from '../../common/contract/apikeys';
import { createApiKeyBody, updateApiKeyBody } from '../../common/schemas/apikeys';
import { generateApiKey } from '../auth/api-key-auth';
import { requireAuth, type AuthContext } from '../auth/guard';
import { apiKeys, users } from '../db/schema';
import type { Db } from '../db/client';
import { badRequest } from '../http/errors';
import {
  anyOf,
  booleanFilter,
  booleanIs,
  endDateFilter,
  filterBody,
  idChoiceFilter,
  labelledChoices,
  orderedPage,
  counted,
  searchFilter,
  searching,
  startDateFilter,
  within,
  type Card,
  type Choice,
} from '../http/lists';
import { uuidParam } from '../http/schemas';
import { companyKeys, findApiKey, selectApiKeys } from '../apikeys/records';
import { auditKey, auditView, checkAccessUser, checkOperations, liveKey } from '../apikeys/service';
import { answerRoute } from '../platform/answer-route';
import { registerFindRoute, registerListRoutes } from '../platform/list-routes';

const TAGS = ['API keys'];
const idParams = z.object({ id: uuidParam });
const RECENT_USE_DAYS = 7;
/** No key can call these routes: a key must not mint or widen keys. */
const reading = { config: { policy: ['apikeys', 'read'] as const, apiKeys: false }, tags: TAGS };
const updating = { config: { policy: ['apikeys', 'update'] as const, apiKeys: false }, tags: TAGS };

const keyList = sent(listAnswer(apikeyRow));
const keyAnswer = sent(answer(apikeyRow));

const apiKeyFilter = filterBody({
  accessUser: idChoiceFilter,
  createduser: idChoiceFilter,
  isActive: booleanFilter,
  isDeleted: booleanFilter,
  startDate: startDateFilter,
  endDate: endDateFilter,
  search: searchFilter,
});

const userName = sql<string>`coalesce(nullif(trim(${users.firstName} || ' ' || ${users.lastName}), ''), ${users.email})`;

/** The users that `column` of the company's keys points at, as filter choices. */
async function userChoices(db: Db, companyId: string, column: typeof apiKeys.accessUserId | typeof apiKeys.createdBy): Promise<Choice[]> {
  return db
    .select({ id: users.id, name: userName })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        exists(
          db
            .select({ one: sql`1` })
            .from(apiKeys)
            .where(and(eq(apiKeys.companyId, companyId), eq(column, users.id))),
        ),
      ),
    )
    .orderBy(asc(userName));
}

/**
 * API keys: credentials for the API that act as their access user, within the operations granted
 * to them (see GET /openapi). The secret is answered once, at creation; only a keyed hash is kept.
 * No key can call these routes: a key must not mint or widen keys.
 */
export async function apiKeyRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db, secrets } = api.ctx;

  // ---- Lists ------------------------------------------------------------------------------------

  const filterConditions = (f: z.output<typeof apiKeyFilter>) => {
    const pattern = f.search;
    return and(
      anyOf(apiKeys.accessUserId, f.accessUser),
      anyOf(apiKeys.createdBy, f.createduser),
      booleanIs(apiKeys.isActive, f.isActive),
      // Deleted keys are shown only when asked for.
      f.isDeleted.length === 0 ? eq(apiKeys.isDeleted, false) : booleanIs(apiKeys.isDeleted, f.isDeleted),
      within(apiKeys.createdAt, f.startDate, f.endDate),
      pattern
        ? or(
            searching([apiKeys.name, apiKeys.prefix], pattern),
            exists(
              db
                .select({ one: sql`1` })
                .from(users)
                .where(
                  and(
                    eq(users.companyId, apiKeys.companyId),
                    eq(users.id, apiKeys.accessUserId),
                    searching([users.email, users.firstName, users.lastName, sql`${users.firstName} || ' ' || ${users.lastName}`], pattern),
                  ),
                ),
            ),
          )
        : undefined,
    );
  };

  const filterChoices = async (companyId: string) => {
    const [accessUser, createduser] = await Promise.all([
      userChoices(db, companyId, apiKeys.accessUserId),
      userChoices(db, companyId, apiKeys.createdBy),
    ]);
    return {
      accessUser,
      createduser,
      isActive: labelledChoices({ true: 'Active', false: 'Inactive' }),
      isDeleted: labelledChoices({ false: 'Not deleted', true: 'Deleted' }),
    };
  };

  const cards = async (companyId: string): Promise<Card[]> => {
    const now = new Date();
    const since = new Date(now.getTime() - RECENT_USE_DAYS * 86_400_000);
    const live = sql`not ${apiKeys.isDeleted}`;
    const expired = sql`${apiKeys.expiresAt} is not null and ${apiKeys.expiresAt} <= ${now}`;
    const [counts] = await db
      .select({
        total: counted(live),
        active: counted(sql`${live} and ${apiKeys.isActive} and not (${sql`coalesce(${expired}, false)`})`),
        inactive: counted(sql`${live} and not ${apiKeys.isActive}`),
        expired: counted(sql`${live} and ${expired}`),
        deleted: counted(sql`${apiKeys.isDeleted}`),
        recentlyUsed: counted(sql`${live} and ${apiKeys.lastUsedAt} >= ${since}`),
      })
      .from(apiKeys)
      .where(eq(apiKeys.companyId, companyId));
    return [
      { key: 'total', label: 'API keys', value: counts.total },
      { key: 'active', label: 'Active', value: counts.active },
      { key: 'inactive', label: 'Inactive', value: counts.inactive },
      { key: 'expired', label: 'Expired', value: counts.expired },
      { key: 'deleted', label: 'Deleted', value: counts.deleted },
      { key: 'recentlyUsed', label: `Used in the last ${RECENT_USE_DAYS} days`, value: counts.recentlyUsed },
    ];
  };

  registerListRoutes(app, reading, {
    answer: keyList,
    message: 'API keys',
    page: (companyId, where, { offset, limit }) =>
      orderedPage(
        db,
        {
          select: () => selectApiKeys(db).$dynamic(),
          where: companyKeys(companyId, where),
          order: [desc(apiKeys.createdAt), desc(apiKeys.id)],
          countFrom: apiKeys,
        },
        offset,
        limit,
      ),
    list: { path: '/apikeys/:offset/:limit', summary: 'List the API keys', where: () => eq(apiKeys.isDeleted, false) },
    filter: { path: '/apikey/filter/:offset/:limit', summary: 'Filter the API keys', body: apiKeyFilter, where: filterConditions },
    props: {
      path: '/apikey/filter/props',
      summary: 'Choices of the API-key filters',
      answer: sent(answer(apikeyFilterProps)),
      message: 'API-key filters',
      data: filterChoices,
    },
    cards: { path: '/apikey/cards', summary: 'Counts of API keys', answer: sent(answer(apikeyCards)), message: 'API-key cards', cards },
  });

  /** Changes a key and keeps its audit entry, in one transaction. */
  const changeKey = (
    request: FastifyRequest,
    auth: AuthContext,
    id: string,
    set: Partial<typeof apiKeys.$inferInsert>,
    operation: string,
    changes: Record<string, unknown>,
  ) =>
    db.transaction(async (tx) => {
      await tx
        .update(apiKeys)
        .set({ ...set, updatedAt: new Date() })
        .where(companyKeys(auth.companyId, eq(apiKeys.id, id)));
      await auditKey(tx, request, auth, id, operation, changes);
    });

  // ---- One key ----------------------------------------------------------------------------------

  api.post(
    '/apikey',
    {
      config: { policy: ['apikeys', 'create'], apiKeys: false },
      schema: {
        summary: 'Create an API key (its secret is answered once)',
        tags: TAGS,
        body: createApiKeyBody,
        response: { 201: sent(answer(createdApikey)) },
      },
    },
    async (request, reply) => {
      const auth = requireAuth(request);
      const { name, expiresAt, operations } = request.body;
      const accessUserId = request.body.accessUserId ?? auth.userId;
      await checkAccessUser(db, auth, accessUserId);
      checkOperations(api.apiOperations, operations);
      const secret = generateApiKey(secrets);
      const id = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(apiKeys)
          .values({
            companyId: auth.companyId,
            name,
            prefix: secret.prefix,
            keyHash: secret.keyHash,
            accessUserId,
            operations: operations ?? [],
            expiresAt: expiresAt ?? null,
            createdBy: auth.userId,
          })
          .returning();
        await auditKey(tx, request, auth, created.id, 'create', { after: auditView(created) });
        return created.id;
      });
      const row = await findApiKey(db, auth.companyId, id);
      return reply.code(201).send({
        message: `API key "${name}" created. Copy the key now: it is not shown again.`,
        data: { ...row, key: secret.key },
      });
    },
  );

  registerFindRoute(app, reading, {
    path: '/apikey/:id',
    summary: 'Read an API key',
    answer: keyAnswer,
    message: 'API key',
    find: (companyId, id) => findApiKey(db, companyId, id),
  });

  api.put(
    '/apikey/:id',
    {
      config: { policy: ['apikeys', 'update'], apiKeys: false },
      schema: {
        summary: 'Edit an API key (name, expiry, access user)',
        tags: TAGS,
        params: idParams,
        body: updateApiKeyBody,
        response: { 200: keyAnswer },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const current = await liveKey(db, auth, id);
      const wanted = request.body;
      const before: Record<string, unknown> = {};
      const after: Record<string, unknown> = {};
      const set: Partial<typeof apiKeys.$inferInsert> = {};
      if (wanted.name !== undefined && wanted.name !== current.name) {
        before.name = current.name;
        after.name = set.name = wanted.name;
      }
      if (wanted.expiresAt !== undefined && wanted.expiresAt?.getTime() !== current.expiresAt?.getTime()) {
        before.expiresAt = current.expiresAt?.toISOString() ?? null;
        after.expiresAt = wanted.expiresAt?.toISOString() ?? null;
        set.expiresAt = wanted.expiresAt;
      }
      if (wanted.accessUserId !== undefined && wanted.accessUserId !== current.accessUserId) {
        await checkAccessUser(db, auth, wanted.accessUserId);
        before.accessUserId = current.accessUserId;
        after.accessUserId = set.accessUserId = wanted.accessUserId;
      }
      if (Object.keys(set).length === 0) return { message: 'Nothing to change', data: current };
      await changeKey(request, auth, id, set, 'update', { before, after });
      return { message: `API key "${set.name ?? current.name}" updated`, data: await findApiKey(db, auth.companyId, id) };
    },
  );

  api.delete(
    '/apikey/:id',
    {
      config: { policy: ['apikeys', 'delete'], apiKeys: false },
      schema: { summary: 'Delete an API key (it stops working at once)', tags: TAGS, params: idParams, response: { 200: messageAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { id } = request.params;
      const current = await findApiKey(db, auth.companyId, id);
      if (current.isDeleted) throw badRequest('This API key is already deleted');
      await changeKey(request, auth, id, { isDeleted: true, isActive: false }, 'delete', { before: auditView(current) });
      return { message: `API key "${current.name}" deleted` };
    },
  );

  for (const [operation, isActive, path] of [
    ['activate', true, '/apikey/activate/:id'],
    ['deactivate', false, '/apikey/deactivate/:id'],
  ] as const) {
    answerRoute(
      app,
      updating,
      { method: 'PUT', path, summary: isActive ? 'Activate an API key' : 'Deactivate an API key', params: idParams, answer: keyAnswer },
      async ({ auth, params: { id }, request }) => {
        const current = await liveKey(db, auth, id);
        if (current.isActive !== isActive) {
          await changeKey(request, auth, id, { isActive }, operation, { before: { isActive: current.isActive }, after: { isActive } });
        }
        return {
          message: `API key "${current.name}" ${isActive ? 'activated' : 'deactivated'}`,
          data: await findApiKey(db, auth.companyId, id),
        };
      },
    );
  }
}
