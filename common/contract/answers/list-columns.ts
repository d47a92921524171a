import { z } from 'zod';
import { answer } from '../answers';

/** The column choices of the console's lists (server/routes/list-columns.ts). */

/** How one list shows its columns. */
export const columnChoice = z.object({
  /** The columns left out. */
  hidden: z.array(z.string()),
  /** The columns in the order chosen; null keeps the list's own order. */
  order: z.array(z.string()).nullable(),
});
export type ColumnChoice = z.infer<typeof columnChoice>;

/**
 * `GET /lists/columns`: by list key, the company's default (`tenant`) and the caller's own
 * (`user`), each null when none is saved. Lists without any choice are not there.
 */
export const columnChoicesAnswer = answer(
  z.record(z.string(), z.object({ tenant: columnChoice.nullable(), user: columnChoice.nullable() })),
);

/** `PUT /lists/{listKey}/columns`: the choice saved (repeated names dropped). */
export const savedColumnsAnswer = answer(columnChoice);
