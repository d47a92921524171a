import { z, type ZodType } from 'zod';

/**
 * How the server writes an answer whose route declares its schema: plain JSON, as every other
 * answer, so a schema documents an answer (the OpenAPI document) without trimming or reshaping
 * it. With `check`, each answer is first held against its schema, and one that does not match
 * fails the call with a 500 naming the route and the fields: the test servers run so, which
 * proves over the whole suite that the document says what the server sends.
 */
export function answerSerializer(check: boolean) {
  return ({ schema, method, url, httpStatus }: { schema: unknown; method: string; url: string; httpStatus?: string }) => {
    const declared = schema instanceof z.ZodType ? (schema as ZodType) : undefined;
    if (!check || !declared) return (data: unknown) => JSON.stringify(data);
    return (data: unknown) => {
      // Answers go out as JSON: check what the JSON says (dates as strings, no undefined).
      const json = JSON.stringify(data);
      const result = declared.safeParse(json === undefined ? undefined : JSON.parse(json));
      if (!result.success) {
        const fields = result.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
          .join('; ');
        throw new Error(`The answer of ${method} ${url} (${httpStatus ?? '2xx'}) does not match its declared schema: ${fields}`);
      }
      return json;
    };
  };
}

/**
 * What a handler may give for an answer whose JSON is `T`. A schema says what JSON carries (a
 * timestamp is an ISO string, a status one of its values); a handler gives the values it read,
 * typed as the database types them (a Date, a text column). JSON writes the one as the other, and
 * the test servers hold every answer against its schema (answerSerializer above), so that is
 * where a value outside its enum is caught. Everything else keeps its type: a missing field, a
 * null where none may be, a number for a string are still type errors.
 */
export type Sent<T> = T extends string
  ? string | Date
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Sent<Item>>
    : T extends object
      ? { [K in keyof T]: Sent<T[K]> }
      : T;

/**
 * An answer schema as a route declares it (`response: { 200: sent(listAnswer(row)) }`): the same
 * schema (the OpenAPI document and the check read it as it is), typed for the handler as `Sent`.
 */
export function sent<T extends ZodType>(schema: T): ZodType<Sent<z.output<T>>> {
  return schema as unknown as ZodType<Sent<z.output<T>>>;
}

/** An answer handed to `reply.send()` (a status other than the route's first, say), typed as `sent` types a returned one. */
export const built = <S extends ZodType>(_schema: S, answer: Sent<z.output<S>>) => answer as z.output<S>;
