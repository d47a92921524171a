import type { FastifyInstance } from 'fastify';
import { z, type ZodObject, type ZodType } from 'zod';
import { answer, messageAnswer } from '../../common/contract/answers';
import type { ActionDeclaration } from '../../common/contract/define';
import { uuidParam } from '../http/schemas';
import { answerRoute, type AnswerCall, type AnswerOf, type RouteBase } from './answer-route';
import { routeTemplate } from './entity-routes';

/** The answer an action declares: its whole answer, else `{ message, data }` with its data, else `{ message }`. */
type ActionAnswer<A extends ActionDeclaration> = A['answer'] extends ZodType
  ? A['answer']
  : A['data'] extends ZodType
    ? ReturnType<typeof answer<A['data']>>
    : typeof messageAnswer;
type ActionBody<A extends ActionDeclaration> = A['body'] extends ZodType ? z.output<A['body']> : unknown;
type ActionQuery<A extends ActionDeclaration> = A['query'] extends ZodType ? z.output<A['query']> : unknown;

/**
 * Registers one of a contract's actions (common/contract/define.ts) at its path and method, with
 * its summary, query, body and answer schemas and its status: the handler writes only what the
 * call does. `{id}` is checked as a record id; any other placeholder by the action's own rule,
 * else as a non-empty text.
 */
export function actionRoute<A extends ActionDeclaration>(
  app: FastifyInstance,
  base: RouteBase,
  action: A,
  handle: (call: AnswerCall<Record<string, string>, ActionQuery<A>, ActionBody<A>>) => Promise<AnswerOf<ActionAnswer<A>>>,
): void {
  const { url, pathNames } = routeTemplate(action.path);
  const params: ZodObject | undefined =
    pathNames.length > 0
      ? z.object(
          Object.fromEntries(pathNames.map((name) => [name, action.params?.[name] ?? (name === 'id' ? uuidParam : z.string().min(1))])),
        )
      : undefined;
  const reply: ZodType = action.answer ?? (action.data ? answer(action.data) : messageAnswer);
  // The handler's types come from the action's own schemas (above); the route checks with the same ones.
  answerRoute<ZodType, Record<string, string>, ActionQuery<A>, ActionBody<A>>(
    app,
    base,
    {
      method: action.method,
      path: url,
      summary: action.summary,
      ...(params ? { params: params as ZodType<Record<string, string>> } : {}),
      ...(action.query ? { querystring: action.query as ZodType<ActionQuery<A>> } : {}),
      ...(action.body ? { body: action.body as ZodType<ActionBody<A>> } : {}),
      answer: reply,
      ...(action.status ? { status: action.status } : {}),
    },
    handle as (call: AnswerCall<Record<string, string>, ActionQuery<A>, ActionBody<A>>) => Promise<never>,
  );
}
