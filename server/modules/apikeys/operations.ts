import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { openApiDocument } from '../../../common/contract/answers/openapi';
import { apikeysContract } from '../../../common/contract/apikeys';
import { requireAuth } from '../../auth/guard';
import { notFound } from '../../http/errors';
import { actionRoute } from '../../platform/action-route';
import type { RouteBase } from '../../platform/answer-route';
import { assignOperations } from '../../apikeys/service';
import { describeOperation } from '../../apikeys/describe';

const TAGS = ['API keys'];
const { actions } = apikeysContract;
/** No key can call these routes. */
const allowed = (action: 'read' | 'update'): RouteBase => ({ config: { policy: ['apikeys', action], apiKeys: false }, tags: TAGS });

/**
 * The document is @fastify/swagger's own object, which it types as a document of any OpenAPI
 * version; this server's is 3.0, and openApiDocument says what it holds.
 */
const documentAnswer = openApiDocument as unknown as ZodType<Exclude<ReturnType<FastifyInstance['swagger']>, string>>;

/**
 * The open API explorer: the operations of this server an API key may be granted, with what each
 * takes, and the call that grants them to a key. No key can call these routes. From the contract's
 * actions: the catalogue `/openapi`, one operation `/openapi/{id}` and the grant
 * `/openapi/assign/{id}`; here, the document `/openapi/document`.
 */
export async function openApiRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  actionRoute(app, allowed('read'), actions.operations, async () => ({
    message: 'Operations an API key may be granted',
    data: api.apiOperations.list(),
  }));

  api.get(
    '/openapi/document',
    {
      config: allowed('read').config,
      schema: { summary: "The server's OpenAPI document", tags: TAGS, response: { 200: documentAnswer } },
    },
    async (request) => {
      requireAuth(request);
      return api.swagger();
    },
  );

  actionRoute(app, allowed('read'), actions.operation, async ({ params }) => {
    const operation = api.apiOperations.find(params.id);
    if (!operation) throw notFound('Operation');
    return { message: 'Operation', data: describeOperation(api.swagger(), operation) };
  });

  actionRoute(app, allowed('update'), actions.assignOperations, async ({ auth, params, body, request }) => {
    const row = await assignOperations(db, api.apiOperations, request, auth, params.id, body.operations);
    const n = row.operations.length;
    return { message: `API key "${row.name}" may call ${n} operation${n === 1 ? '' : 's'}`, data: row };
  });
}
