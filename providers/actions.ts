import type { z, ZodType } from 'zod';
import { isFileAnswer, type ActionDeclaration, type FileAnswer, type MultipartBody } from '../common/contract/define';
import { apiRequest, apiResponse, type RequestOptions } from './http';

/**
 * Contract actions as the console calls them. Kept apart from the dataProvider, with no import
 * of zod or of a contract, so that the sign-in screens (which load the caller's policies through
 * an action) stay small; the dataProvider offers callAction as its `call`.
 */

/** Fills a path template; a placeholder without a value is a declaration error, said loudly. */
export function fillPath(template: string, values: Readonly<Record<string, string | number | undefined>>): string {
  const [path, query] = template.split('?', 2) as [string, string | undefined];
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined || value === '') throw new Error(`The path ${template} needs a value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  if (query === undefined) return filled;
  // A query's placeholders are optional: a parameter without a value is left out.
  const parameters = query.split('&').flatMap((parameter) => {
    const placeholder = /^([^=]+)=\{(\w+)\}$/.exec(parameter);
    if (!placeholder) return [parameter];
    const value = values[placeholder[2]];
    return value === undefined || value === '' ? [] : [`${placeholder[1]}=${encodeURIComponent(String(value))}`];
  });
  return parameters.length > 0 ? `${filled}?${parameters.join('&')}` : filled;
}

/**
 * What an action answers: its message and its data as its contract declares them, or its whole
 * declared answer; a file answer is the response itself, to read as a Blob or as text.
 */
export type ActionAnswer<A extends ActionDeclaration> = A['answer'] extends FileAnswer
  ? Response
  : A['answer'] extends ZodType
    ? z.output<A['answer']>
    : { message?: string; data: A['data'] extends ZodType ? z.output<A['data']> : undefined };

/** What a call of an action gives: its path's values (`{ id }`), its body (a FormData for a form), and a signal to cancel it. */
export interface ActionCall<A extends ActionDeclaration> {
  values?: Readonly<Record<string, string | number>>;
  /** Its query (`{ userId }`); empty values are left out. */
  query?: A['query'] extends ZodType ? z.input<A['query']> : never;
  body?: A['body'] extends MultipartBody ? FormData : A['body'] extends ZodType ? z.input<A['body']> : never;
  signal?: AbortSignal;
}

/**
 * Calls one of a contract's actions at its path and method: a public one without the session's
 * token, a file answer asked for by its media types and given back unread. The dataProvider
 * offers it as `call`; a query outside a component (a react-query function) may call it directly.
 */
export async function callAction<A extends ActionDeclaration>(action: A, call: ActionCall<A> = {}): Promise<ActionAnswer<A>> {
  const path = fillPath(action.path, call.values ?? {});
  const options: RequestOptions = {
    method: action.method,
    body: call.body,
    signal: call.signal,
    ...(action.access === 'public' ? { public: true } : {}),
    ...(call.query ? { query: call.query as RequestOptions['query'] } : {}),
  };
  if (isFileAnswer(action.answer)) {
    const accept = Object.keys(action.answer.content).join(', ');
    return apiResponse(path, { ...options, headers: { accept } }) as Promise<ActionAnswer<A>>;
  }
  return apiRequest<ActionAnswer<A>>(path, options);
}
