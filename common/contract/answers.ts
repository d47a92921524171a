import { z, type ZodType } from 'zod';

/**
 * The shapes of the server's answers, as the OpenAPI document describes them: every JSON answer
 * is `{ message, data? }`, a list's data is one page of rows with its (capped) count. Routes
 * declare their 2xx answer with these; the server checks its answers against them under test
 * (server/platform/answers.ts), so the document cannot drift from what is sent.
 */

/** A file's bytes, as the document names them (a form's file part, a file answer). */
export const fileBytes = z.string().meta({ format: 'binary' });

/** `{ message }`: a change that has nothing to give back. */
export const messageAnswer = z.object({ message: z.string() });

/** `{ message, data }` */
export function answer<T extends ZodType>(data: T) {
  return z.object({ message: z.string(), data });
}

/** One page of a list: its rows, and how many there are in all (up to the count cap, then `countExact: false`). */
export function pageOf<T extends ZodType>(row: T) {
  return z.object({ rows: z.array(row), count: z.number().int(), countExact: z.boolean() });
}

/** `{ message, data: { rows, count, countExact } }` */
export function listAnswer<T extends ZodType>(row: T) {
  return answer(pageOf(row));
}

/** A filter bar's choice: `{ id, name }`. */
export const choice = z.object({ id: z.string(), name: z.string() });

/** A summary card above a list. */
export const card = z.object({ key: z.string(), label: z.string(), value: z.number(), link: z.string().optional() });

/** `{ message, data: [card…] }` */
export const cardsAnswer = answer(z.array(card));

/** An id and a name, as the pickers read them (`/roles/active`, `/workspaces/active`). */
export const idName = z.object({ id: z.string(), name: z.string() });

/** A timestamp as JSON carries it. */
export const timestamp = z.string().describe('ISO 8601 date and time');
