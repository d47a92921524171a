import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import type { z, ZodType } from 'zod';
import type { HttpMethod } from '../../common/contract/routes';
import { requireAuth } from '../auth/guard';
import type { AuthContext } from './auth-context';
import type { Sent } from './answers';

/** What the routes of one area share: who may call them (the policy) and their OpenAPI tags. */
export interface RouteBase {
  config: FastifyContextConfig;
  tags: string[];
}

/** One route answered as `{ message, data }` (or `{ message }`) to a signed-in caller. */
export interface AnswerRoute<Answer extends ZodType, Params, Query, Body> {
  method: HttpMethod;
  path: string;
  summary: string;
  params?: ZodType<Params>;
  querystring?: ZodType<Query>;
  body?: ZodType<Body>;
  answer: Answer;
  /** 200 unless given. */
  status?: number;
}

/** What a handler is given: the caller, and the request's validated parts. */
export interface AnswerCall<Params, Query, Body> {
  auth: AuthContext;
  params: Params;
  query: Query;
  body: Body;
  request: FastifyRequest;
}

/** What a handler gives back for `answer`: its shape, with dates as Dates (platform/answers.ts). */
export type AnswerOf<Answer extends ZodType> = Sent<z.output<Answer>>;

/**
 * Registers a route whose handler needs only the caller and the validated request: the route's
 * policy, summary, tags and schemas are declared in one place, and its answer is sent with its
 * declared status.
 */
export function answerRoute<Answer extends ZodType, Params = unknown, Query = unknown, Body = unknown>(
  app: FastifyInstance,
  base: RouteBase,
  route: AnswerRoute<Answer, Params, Query, Body>,
  handle: (call: AnswerCall<Params, Query, Body>) => Promise<AnswerOf<Answer>>,
): void {
  const status = route.status ?? 200;
  const schema: FastifySchema & { summary: string; tags: string[] } = {
    summary: route.summary,
    tags: base.tags,
    ...(route.params ? { params: route.params } : {}),
    ...(route.querystring ? { querystring: route.querystring } : {}),
    ...(route.body ? { body: route.body } : {}),
    response: { [status]: route.answer },
  };
  app.route({
    method: route.method,
    url: route.path,
    config: base.config,
    schema,
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const answer = await handle({
        auth,
        params: request.params as Params,
        query: request.query as Query,
        body: request.body as Body,
        request,
      });
      return reply.code(status).send(answer);
    },
  });
}
