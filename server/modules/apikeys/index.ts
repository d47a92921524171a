import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answer } from '../../../common/contract/answers';
import { apikeyCards, apikeyFilterProps, apikeyRow, apikeysContract, createdApikey } from '../../../common/contract/apikeys';
import { createApiKeyBody, updateApiKeyBody } from '../../../common/schemas/apikeys';
import { findApiKey, type ApiKeyRow } from '../../apikeys/records';
import { auditKey, auditView, changeKey, checkAccessUser, checkOperations, liveKey } from '../../apikeys/service';
import { generateApiKey } from '../../auth/api-key-auth';
import { requireAuth } from '../../auth/guard';
import { apiKeys } from '../../db/schema';
import { uuidParam } from '../../http/schemas';
import { answerRoute } from '../../platform/answer-route';
import { sent } from '../../platform/answers';
import type { EntityModule } from '../../platform/entity-routes';
import { openApiRoutes } from './operations';
import { apiKeyFilterBody, apiKeyRepository } from './repository';

const TAGS = ['API keys'];
const idParams = z.object({ id: uuidParam });
const keyAnswer = sent(answer(apikeyRow));
/** No key can call these routes: a key must not mint or widen keys. */
const config = (action: 'create' | 'update') => ({ policy: ['apikeys', action] as const, apiKeys: false });

/**
 * API keys: credentials for the API that act as their access user, within the operations granted
 * to them (see GET /openapi). The secret is answered once, at creation; only a keyed hash is kept.
 * Served from their contract: the list `/apikeys/{offset}/{limit}`, the filter
 * `/apikey/filter/{offset}/{limit}`, its choices `/apikey/filter/props`, the cards `/apikey/cards`,
 * the read and delete `/apikey/{id}`. By hand: the create `/apikey` (it answers the key, once), the
 * change `/apikey/{id}`, `/apikey/activate/{id}` and `/apikey/deactivate/{id}` (a deleted key
 * cannot change, and only an admin may change a key acting as someone else), and the operations a
 * key may be granted.
 */
export const apikeysModule: EntityModule<ApiKeyRow> = {
  contract: apikeysContract,
  repository: apiKeyRepository,
  bodies: { filter: apiKeyFilterBody },
  calls: {
    filterProps: { summary: 'Choices of the API-key filters', message: 'API-key filters', data: apikeyFilterProps },
    cards: { summary: 'Counts of API keys', message: 'API-key cards', data: apikeyCards },
    one: { summary: 'Read an API key' },
    delete: { summary: 'Delete an API key (it stops working at once)' },
  },
  own: ['create', 'update', 'activate', 'deactivate'],
  apiKeys: false,
  async routes(app: FastifyInstance) {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const { db, secrets } = api.ctx;

    api.post(
      '/apikey',
      {
        config: config('create'),
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

    api.put(
      '/apikey/:id',
      {
        config: config('update'),
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
        await changeKey(db, request, auth, id, set, 'update', { before, after });
        return { message: `API key "${set.name ?? current.name}" updated`, data: await findApiKey(db, auth.companyId, id) };
      },
    );

    // A key already in the state asked for is left as it is, without an audit entry.
    for (const [operation, isActive, path] of [
      ['activate', true, '/apikey/activate/:id'],
      ['deactivate', false, '/apikey/deactivate/:id'],
    ] as const) {
      answerRoute(
        app,
        { config: config('update'), tags: TAGS },
        { method: 'PUT', path, summary: isActive ? 'Activate an API key' : 'Deactivate an API key', params: idParams, answer: keyAnswer },
        async ({ auth, params: { id }, request }) => {
          const current = await liveKey(db, auth, id);
          if (current.isActive !== isActive) {
            await changeKey(db, request, auth, id, { isActive }, operation, {
              before: { isActive: current.isActive },
              after: { isActive },
            });
          }
          return {
            message: `API key "${current.name}" ${isActive ? 'activated' : 'deactivated'}`,
            data: await findApiKey(db, auth.companyId, id),
          };
        },
      );
    }

    await openApiRoutes(app);
  },
};
