import type { FastifyInstance } from 'fastify';
import { z, type ZodObject, type ZodType } from 'zod';
import { answer, messageAnswer } from '../../common/contract/answers';
import { isFileAnswer, isMultipartBody, type ActionDeclaration, type FileAnswer } from '../../common/contract/define';
import { requireAuth } from '../auth/guard';
import { uuidParam } from '../http/schemas';
import { replyRoute, type AnswerCall, type AnswerOf, type RequestCall, type RouteBase, type SentFile } from './answer-route';
import { routeTemplate } from './entity-routes';

/** The answer an action declares: its whole answer, else `{ message, data }` with its data, else `{ message }`. */
type ActionAnswer<A extends ActionDeclaration> = A['answer'] extends ZodType
  ? A['answer']
  : A['data'] extends ZodType
    ? ReturnType<typeof answer<A['data']>>
    : typeof messageAnswer;
/** A JSON body as its schema reads it; a form is read by the handler from the request. */
type ActionBody<A extends ActionDeclaration> = A['body'] extends ZodType ? z.output<A['body']> : unknown;
type ActionQuery<A extends ActionDeclaration> = A['query'] extends ZodType ? z.output<A['query']> : unknown;
/** What the handler is given: the caller too, unless the action is public. */
type ActionCallOf<A extends ActionDeclaration> = A['access'] extends 'public'
  ? RequestCall<Record<string, string>, ActionQuery<A>, ActionBody<A>>
  : AnswerCall<Record<string, string>, ActionQuery<A>, ActionBody<A>>;
/** What the handler gives back: a file, its answer, or (where several statuses are declared) its answer with its status. */
type ActionResult<A extends ActionDeclaration> = A['answer'] extends FileAnswer
  ? SentFile
  : A['status'] extends readonly number[]
    ? { status: number; answer: AnswerOf<ActionAnswer<A>> }
    : AnswerOf<ActionAnswer<A>>;

/**
 * The checks of an action's path: `{id}` as a record id, any other placeholder by the action's
 * own rule. A placeholder without one stops the start: what it may hold is the contract's to say.
 */
function pathParams(action: ActionDeclaration): ZodObject | undefined {
  const { pathNames } = routeTemplate(action.path);
  if (pathNames.length === 0) return undefined;
  const rules = pathNames.map((name) => {
    const rule = action.params?.[name] ?? (name === 'id' ? uuidParam : undefined);
    if (!rule) throw new Error(`The action ${action.method} ${action.path} declares no params rule for {${name}}`);
    return [name, rule] as const;
  });
  return z.object(Object.fromEntries(rules));
}

/**
 * Registers one of a contract's actions (common/contract/define.ts) at its path and method, with
 * its summary, query, body and answer schemas and its status: the handler writes only what the
 * call does. A public action needs no signed-in caller; a form body is read by the handler; a
 * file answer is sent as the handler gives it; declared statuses are chosen by the handler.
 */
export function actionRoute<A extends ActionDeclaration>(
  app: FastifyInstance,
  base: RouteBase,
  action: A,
  handle: (call: ActionCallOf<A>) => Promise<ActionResult<A>>,
): void {
  const { url } = routeTemplate(action.path);
  const params = pathParams(action);
  const declared = action.answer;
  const reply: unknown = isFileAnswer(declared)
    ? { description: declared.description, content: declared.content }
    : (declared ?? (action.data ? answer(action.data) : messageAnswer));
  const statuses: readonly number[] = Array.isArray(action.status) ? action.status : [(action.status as number | undefined) ?? 200];
  const publicCall = action.access === 'public';
  replyRoute<Record<string, string>, ActionQuery<A>, ActionBody<A>>(
    app,
    publicCall ? { ...base, config: { ...base.config, public: true } } : base,
    {
      method: action.method,
      path: url,
      summary: action.summary,
      ...(params ? { params: params as ZodType<Record<string, string>> } : {}),
      ...(action.query ? { querystring: action.query as ZodType<ActionQuery<A>> } : {}),
      ...(isMultipartBody(action.body) ? { form: action.body.parts } : action.body ? { body: action.body as ZodType<ActionBody<A>> } : {}),
      responses: Object.fromEntries(statuses.map((status) => [status, reply])),
    },
    async (call) => {
      // The handler's types come from the action's own schemas (above); the route checks with the same ones.
      const result = (await handle((publicCall ? call : { ...call, auth: requireAuth(call.request) }) as ActionCallOf<A>)) as unknown;
      if (isFileAnswer(declared)) return { status: statuses[0], file: result as SentFile };
      if (!Array.isArray(action.status)) return { status: statuses[0], answer: result };
      const chosen = result as { status: number; answer: unknown };
      if (!statuses.includes(chosen.status))
        throw new Error(`${action.method} ${action.path} answered ${chosen.status}, which it does not declare`);
      return chosen;
    },
  );
}
