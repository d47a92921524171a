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
      const sent = JSON.stringify(data);
      const result = declared.safeParse(sent === undefined ? undefined : JSON.parse(sent));
      if (!result.success) {
        const fields = result.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
          .join('; ');
        throw new Error(`The answer of ${method} ${url} (${httpStatus ?? '2xx'}) does not match its declared schema: ${fields}`);
      }
      return sent;
    };
  };
}

/**
 * What a handler hands over for the answer its route declares: that shape, with dates as Date
 * objects (JSON writes them as ISO strings) and the contract's enums as the plain text the columns
 * are typed with. The test servers hold every answer to its schema (server/platform/answers.ts);
 * this keeps the rest of the shape checked by the compiler.
 */
export type Built<T> = T extends string
  ? string | Date
  : T extends ReadonlyArray<infer Item>
    ? ReadonlyArray<Built<Item>>
    : T extends object
      ? { [K in keyof T]: Built<T[K]> }
      : T;
export const built = <S extends ZodType>(_schema: S, answer: Built<z.output<S>>) => answer as z.output<S>;
