import type {} from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';
import { answer } from '../../../common/contract/answers';
import { sent } from '../../platform/answers';
import { apiOperation, apiOperationDetail, openApiDocument } from '../../../common/contract/answers/openapi';
import { apikeyRow } from '../../../common/contract/apikeys';
import { assignOperationsBody } from '../../../common/schemas/apikeys';
import { requireAuth } from '../../auth/guard';
import { notFound } from '../../http/errors';
import { uuidParam } from '../../http/schemas';
import { assignOperations } from '../../apikeys/service';
import { describeOperation } from '../../apikeys/describe';

const TAGS = ['API keys'];

/**
 * The document is @fastify/swagger's own object, which it types as a document of any OpenAPI
 * version; this server's is 3.0, and openApiDocument says what it holds.
 */
const documentAnswer = openApiDocument as unknown as ZodType<Exclude<ReturnType<FastifyInstance['swagger']>, string>>;

const operationParams = z.object({
  id: z.string().regex(/^[a-z]+_[A-Za-z0-9_]{1,200}$/, 'must be an operation id such as get_workspaces'),
});

/**
 * The open API explorer: the operations of this server an API key may be granted, with what each
 * takes, and the call that grants them to a key. No key can call these routes.
 */
export async function openApiRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  api.get(
    '/openapi',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: 'Operations an API key may be granted', tags: TAGS, response: { 200: sent(answer(z.array(apiOperation))) } },
    },
    async (request) => {
      requireAuth(request);
      return { message: 'Operations an API key may be granted', data: api.apiOperations.list() };
    },
  );

  api.get(
    '/openapi/document',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: { summary: "The server's OpenAPI document", tags: TAGS, response: { 200: documentAnswer } },
    },
    async (request) => {
      requireAuth(request);
      return api.swagger();
    },
  );

  api.get(
    '/openapi/:id',
    {
      config: { policy: ['apikeys', 'read'], apiKeys: false },
      schema: {
        summary: 'One operation: its parameters and body',
        tags: TAGS,
        params: operationParams,
        response: { 200: sent(answer(apiOperationDetail)) },
      },
    },
    async (request) => {
      requireAuth(request);
      const operation = api.apiOperations.find(request.params.id);
      if (!operation) throw notFound('Operation');
      return { message: 'Operation', data: describeOperation(api.swagger(), operation) };
    },
  );

  api.post(
    '/openapi/assign/:id',
    {
      config: { policy: ['apikeys', 'update'], apiKeys: false },
      schema: {
        summary: 'Replace the operations granted to an API key',
        tags: TAGS,
        params: z.object({ id: uuidParam }),
        body: assignOperationsBody,
        response: { 200: sent(answer(apikeyRow)) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const row = await assignOperations(db, api.apiOperations, request, auth, request.params.id, request.body.operations);
      const n = row.operations.length;
      return { message: `API key "${row.name}" may call ${n} operation${n === 1 ? '' : 's'}`, data: row };
    },
  );
}
