import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, desc, eq, exists, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { answer, listAnswer, messageAnswer } from '../../common/contract/answers';
import { sent } from '../../common/contract/answers/sent';
import { apikeyCards, apikeyFilterProps, apikeyRow, createdApikey } from '../../common/contract/apikeys';
import { createApiKeyBody, updateApiKeyBody } from '../../common/schemas/apikeys';
import { generateApiKey } from '../auth/api-key-auth';
import { requireAuth } from '../auth/guard';
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
  listPage,
  pageParams,
  searchFilter,
  searching,
  startDateFilter,
  within,
  type Card,
  type Choice,
  inlined,
} from '../http/lists';
import { uuidParam } from '../http/schemas';
import { companyKeys, findApiKey, selectApiKeys } from '../apikeys/records';
import { auditKey, auditView, checkAccessUser, checkOperations, liveKey } from '../apikeys/service';

const TAGS = ['API keys'];
const idParams = z.object({ id: uuidParam });
const RECENT_USE_DAYS = 7;

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

  const listOf = (where: SQL | undefined, offset: number, limit: number) =>
    listPage(
      db,
      {
        page: (o, l) =>
          selectApiKeys(db).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id)).offset(inlined(o)).limit(inlined(l)),
        countFrom: apiKeys,
        where,
      },
      offset,
      limit,
    );

  api.get(
    '/apikeys/:offset/:limit',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'List the API keys', tags: TAGS, params: pageParams, response: { 200: keyList } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      return { message: 'API keys', data: await listOf(companyKeys(companyId, eq(apiKeys.isDeleted, false)), offset, limit) };
    },
  );

  api.post(
    '/apikey/filter/:offset/:limit',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'Filter the API keys', tags: TAGS, params: pageParams, body: apiKeyFilter, response: { 200: keyList } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const { offset, limit } = request.params;
      const f = request.body;
      const pattern = f.search;
      const where = companyKeys(
        companyId,
        and(
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
                        searching(
                          [users.email, users.firstName, users.lastName, sql`${users.firstName} || ' ' || ${users.lastName}`],
                          pattern,
                        ),
                      ),
                    ),
                ),
              )
            : undefined,
        ),
      );
      return { message: 'API keys', data: await listOf(where, offset, limit) };
    },
  );

  api.get(
    '/apikey/filter/props',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'Choices of the API-key filters', tags: TAGS, response: { 200: sent(answer(apikeyFilterProps)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const [accessUser, createduser] = await Promise.all([
        userChoices(db, companyId, apiKeys.accessUserId),
        userChoices(db, companyId, apiKeys.createdBy),
      ]);
      return {
        message: 'API-key filters',
        data: {
          accessUser,
          createduser,
          isActive: [
            { id: 'true', name: 'Active' },
            { id: 'false', name: 'Inactive' },
          ],
          isDeleted: [
            { id: 'false', name: 'Not deleted' },
            { id: 'true', name: 'Deleted' },
          ],
        },
      };
    },
  );

  api.get(
    '/apikey/cards',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'Counts of API keys', tags: TAGS, response: { 200: sent(answer(apikeyCards)) } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      const now = new Date();
      const since = new Date(now.getTime() - RECENT_USE_DAYS * 86_400_000);
      const live = sql`not ${apiKeys.isDeleted}`;
      const expired = sql`${apiKeys.expiresAt} is not null and ${apiKeys.expiresAt} <= ${now}`;
      const n = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
      const [counts] = await db
        .select({
          total: n(live),
          active: n(sql`${live} and ${apiKeys.isActive} and not (${sql`coalesce(${expired}, false)`})`),
          inactive: n(sql`${live} and not ${apiKeys.isActive}`),
          expired: n(sql`${live} and ${expired}`),
          deleted: n(sql`${apiKeys.isDeleted}`),
          recentlyUsed: n(sql`${live} and ${apiKeys.lastUsedAt} >= ${since}`),
        })
        .from(apiKeys)
        .where(eq(apiKeys.companyId, companyId));
      const cards: Card[] = [
        { key: 'total', label: 'API keys', value: counts.total },
        { key: 'active', label: 'Active', value: counts.active },
        { key: 'inactive', label: 'Inactive', value: counts.inactive },
        { key: 'expired', label: 'Expired', value: counts.expired },
        { key: 'deleted', label: 'Deleted', value: counts.deleted },
        { key: 'recentlyUsed', label: `Used in the last ${RECENT_USE_DAYS} days`, value: counts.recentlyUsed },
      ];
      return { message: 'API-key cards', data: { cards } };
    },
  );

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

  api.get(
    '/apikey/:id',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'Read an API key', tags: TAGS, params: idParams, response: { 200: keyAnswer } },
    },
    async (request) => {
      const { companyId } = requireAuth(request);
      return { message: 'API key', data: await findApiKey(db, companyId, request.params.id) };
    },
  );

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
      await db.transaction(async (tx) => {
        await tx
          .update(apiKeys)
          .set({ ...set, updatedAt: new Date() })
          .where(companyKeys(auth.companyId, eq(apiKeys.id, id)));
        await auditKey(tx, request, auth, id, 'update', { before, after });
      });
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
      await db.transaction(async (tx) => {
        await tx
          .update(apiKeys)
          .set({ isDeleted: true, isActive: false, updatedAt: new Date() })
          .where(companyKeys(auth.companyId, eq(apiKeys.id, id)));
        await auditKey(tx, request, auth, id, 'delete', { before: auditView(current) });
      });
      return { message: `API key "${current.name}" deleted` };
    },
  );

  for (const [operation, isActive, path] of [
    ['activate', true, '/apikey/activate/:id'],
    ['deactivate', false, '/apikey/deactivate/:id'],
  ] as const) {
    api.put(
      path,
      {
        config: { policy: ['apikeys', 'update'], apiKeys: false },
        schema: {
          summary: isActive ? 'Activate an API key' : 'Deactivate an API key',
          tags: TAGS,
          params: idParams,
          response: { 200: keyAnswer },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const { id } = request.params;
        const current = await liveKey(db, auth, id);
        if (current.isActive !== isActive) {
          await db.transaction(async (tx) => {
            await tx
              .update(apiKeys)
              .set({ isActive, updatedAt: new Date() })
              .where(companyKeys(auth.companyId, eq(apiKeys.id, id)));
            await auditKey(tx, request, auth, id, operation, { before: { isActive: current.isActive }, after: { isActive } });
          });
        }
        return {
          message: `API key "${current.name}" ${isActive ? 'activated' : 'deactivated'}`,
          data: await findApiKey(db, auth.companyId, id),
        };
      },
    );
  }
}
