import type { FastifyContextConfig, FastifyInstance, FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
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

/** Where a route is, its summary, and the schemas its request is checked with. */
interface RouteParts<Params, Query, Body> {
  method: HttpMethod;
  path: string;
  summary: string;
  params?: ZodType<Params>;
  querystring?: ZodType<Query>;
  body?: ZodType<Body>;
}

/** One route answered as `{ message, data }` (or `{ message }`) to a signed-in caller. */
export interface AnswerRoute<Answer extends ZodType, Params, Query, Body> extends RouteParts<Params, Query, Body> {
  answer: Answer;
  /** 200 unless given. */
  status?: number;
}

/** What a handler of a public route is given: the request's validated parts. */
export interface RequestCall<Params, Query, Body> {
  params: Params;
  query: Query;
  body: Body;
  request: FastifyRequest;
}

/** What a handler is given: the caller, and the request's validated parts. */
export interface AnswerCall<Params, Query, Body> extends RequestCall<Params, Query, Body> {
  auth: AuthContext;
}

/** What a handler gives back for `answer`: its shape, with dates as Dates (platform/answers.ts). */
export type AnswerOf<Answer extends ZodType> = Sent<z.output<Answer>>;

/** A file a route sends as it is: its bytes or text, its media type, and the headers beside it. */
export interface SentFile {
  body: Buffer | string;
  type: string;
  headers?: Readonly<Record<string, string>>;
}

/** What a route sends: a JSON answer, or a file, under its status. */
export type Reply = { status: number; answer: unknown } | { status: number; file: SentFile };

/**
 * One route as `replyRoute` registers it: its schemas, and its answer's schema per status (a zod
 * schema, or `{ description, content }` for a file). `form` describes a multipart/form-data body
 * that the handler reads itself: the document shows its parts, and nothing checks them first.
 */
export interface ReplyRoute<Params, Query, Body> extends RouteParts<Params, Query, Body> {
  form?: ZodType;
  responses: Readonly<Record<number, unknown>>;
}

/** The checks of a route whose form its handler reads: its parts are for the document only. */
const formUnchecked: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler({ ...route, schema: route.schema as ZodType });

/**
 * Registers a route from its declaration: its policy (`base`), summary, tags and schemas in one
 * place; the handler is given the validated request and says what to send, and with which status.
 */
export function replyRoute<Params, Query, Body>(
  app: FastifyInstance,
  base: RouteBase,
  route: ReplyRoute<Params, Query, Body>,
  handle: (call: RequestCall<Params, Query, Body>) => Promise<Reply>,
): void {
  const schema: FastifySchema & { summary: string; tags: string[]; consumes?: string[] } = {
    summary: route.summary,
    tags: base.tags,
    ...(route.params ? { params: route.params } : {}),
    ...(route.querystring ? { querystring: route.querystring } : {}),
    ...(route.body ? { body: route.body } : {}),
    ...(route.form ? { body: route.form, consumes: ['multipart/form-data'] } : {}),
    response: route.responses,
  };
  app.route({
    method: route.method,
    url: route.path,
    config: base.config,
    schema,
    ...(route.form ? { validatorCompiler: formUnchecked } : {}),
    handler: async (request, reply) => {
      const sent = await handle({
        params: request.params as Params,
        query: request.query as Query,
        body: request.body as Body,
        request,
      });
      reply.code(sent.status);
      if (!('file' in sent)) return reply.send(sent.answer);
      reply.header('content-type', sent.file.type);
      for (const [name, value] of Object.entries(sent.file.headers ?? {})) reply.header(name, value);
      return reply.send(sent.file.body);
    },
  });
}

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
  replyRoute(app, base, { ...route, responses: { [status]: route.answer } }, async (call) => ({
    status,
    answer: await handle({ ...call, auth: requireAuth(call.request) }),
  }));
}
