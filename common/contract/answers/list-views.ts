import { z } from 'zod';
import { answer, timestamp } from '../answers';

/** A user's saved views of the console's lists (server/routes/list-columns.ts): react-admin's saved queries, kept by the server. */

const columnNames = z
  .array(z.string().min(1, 'may not hold an empty name').max(100, 'may hold names of at most 100 characters'))
  .max(100, 'may hold at most 100 columns');

/** A list's order as a view keeps it. */
export const viewSort = z.object({
  field: z.string().min(1, 'is required').max(100, 'must be at most 100 characters'),
  order: z.enum(['ASC', 'DESC'], { error: 'must be ASC or DESC' }),
});

/** Filter values as the console's filter bar holds them: at most 50 fields, 10,000 characters in all. */
const viewFilter = z
  .record(z.string().max(100, 'may hold field names of at most 100 characters'), z.unknown())
  .refine((filter) => Object.keys(filter).length <= 50, 'may hold at most 50 fields')
  .refine((filter) => JSON.stringify(filter).length <= 10_000, 'must be at most 10,000 characters as JSON');

/** `POST /lists/{listKey}/views`: a view to keep under a name (the columns are left as they are when not given). */
export const savedViewBody = z
  .object({
    name: z.string().trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
    filter: viewFilter.default({}),
    sort: viewSort.nullish(),
    hidden: columnNames.nullish(),
    order: columnNames.nullish(),
  })
  .strict();

export const savedView = z.object({
  id: z.string(),
  name: z.string(),
  filter: z.record(z.string(), z.unknown()),
  sort: viewSort.nullable(),
  hidden: z.array(z.string()).nullable(),
  order: z.array(z.string()).nullable(),
  createdAt: timestamp,
});
export type SavedView = z.infer<typeof savedView>;

/** `GET /lists/{listKey}/views`: the caller's views of the list, by name. */
export const savedViewsAnswer = answer(z.array(savedView));

/** `POST /lists/{listKey}/views` (201): the view kept. */
export const savedViewAnswer = answer(savedView);
