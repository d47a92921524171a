import { z } from 'zod';

/** Bodies of the tables area (docs/api/tables.md), shared by the server and the console. */

export const TABLE_NAME_MAX = 120;
export const TABLE_DESCRIPTION_MAX = 2000;
export const COLUMN_DESCRIPTION_MAX = 2000;
export const BUSINESS_NAME_MAX = 200;
export const OWNER_MAX = 200;
export const SENSITIVITIES = ['public', 'internal', 'confidential', 'pii'] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];

const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, `must be at most ${max} characters`);
const workspaceId = z.union([z.uuid({ error: 'must be a valid id' }), z.literal(''), z.null()], { error: 'must be a valid id' });

export const tableName = text(TABLE_NAME_MAX).min(1, 'is required');

/** What people write about one column; only the fields given change. */
export const dictionaryFields = {
  description: text(COLUMN_DESCRIPTION_MAX),
  businessName: text(BUSINESS_NAME_MAX),
  sensitivity: z.enum(SENSITIVITIES, { error: `must be one of ${SENSITIVITIES.join(', ')}` }),
  owner: text(OWNER_MAX),
};

export const dictionaryEdit = z
  .object({
    name: z.string({ error: 'is required' }).min(1, 'is required').max(200, 'must be at most 200 characters'),
    description: dictionaryFields.description.optional(),
    businessName: dictionaryFields.businessName.optional(),
    sensitivity: dictionaryFields.sensitivity.optional(),
    owner: dictionaryFields.owner.optional(),
  })
  .strict();
export type DictionaryEdit = z.output<typeof dictionaryEdit>;

export const registerTableBody = z
  .object({
    connectionId: z.uuid({ error: 'must be a valid id' }),
    endpoint: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500, 'must be at most 500 characters'),
    name: text(TABLE_NAME_MAX).optional(),
    description: text(TABLE_DESCRIPTION_MAX).optional(),
    workspaceId: workspaceId.optional(),
  })
  .strict();

export const updateTableBody = z
  .object({
    name: tableName.optional(),
    description: text(TABLE_DESCRIPTION_MAX).optional(),
    workspaceId: workspaceId.optional(),
    /** A column of the table (a timestamp, a date or a number that only grows), or null for none. */
    watermarkColumn: z.string({ error: 'must be a column name' }).trim().min(1, 'must be a column name').max(200).nullable().optional(),
    columns: z.array(dictionaryEdit, { error: 'must be a list of column entries' }).max(5000, 'may hold at most 5000 entries').optional(),
  })
  .strict();

/**
 * Whether a column's type (as its source names it) can be a watermark: a whole number or a
 * decimal, a date or a timestamp. Text would compare as text (`9` after `10`), a time of day
 * comes round again, an interval or a float is no position in a table's history.
 */
export function isWatermarkType(dataType: string): boolean {
  return /^(big|small|tiny|medium)?int(eger|\d+)?\b|serial|numeric|decimal|^number|^long|date|timestamp/i.test(dataType.trim());
}
