import type { z, ZodType } from 'zod';

/**
 * What a handler may give for an answer whose JSON is `T`. A schema says what JSON carries (a
 * timestamp is an ISO string, a status one of its values); a handler gives the values it read,
 * typed as the database types them (a Date, a text column). JSON writes the one as the other, and
 * the test servers hold every answer against its schema (server/platform/answers.ts), so that is
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
