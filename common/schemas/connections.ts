import { z } from 'zod';
import { CONNECTION_TYPES } from '../connections';

/**
 * Bodies of the connections area (docs/api/connections.md). A connection's settings are checked
 * against its type's declarations by `parseSettings` (common/connections.ts), after these.
 */

export const CONNECTION_NAME_MAX = 80;
export const CONNECTION_DESCRIPTION_MAX = 1000;

export const connectionName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(CONNECTION_NAME_MAX, `must be at most ${CONNECTION_NAME_MAX} characters`);

const description = z
  .string({ error: 'must be text' })
  .trim()
  .max(CONNECTION_DESCRIPTION_MAX, `must be at most ${CONNECTION_DESCRIPTION_MAX} characters`);
const workspaceId = z.union([z.uuid({ error: 'must be a valid id' }), z.literal(''), z.null()], { error: 'must be a valid id' });
const settings = z.record(z.string(), z.unknown(), { error: 'must be an object of settings' });

export const createConnectionBody = z
  .object({
    name: connectionName,
    type: z.enum(CONNECTION_TYPES, { error: `must be one of ${CONNECTION_TYPES.join(', ')}` }),
    description: description.optional(),
    workspaceId: workspaceId.optional(),
    isSource: z.boolean({ error: 'must be true or false' }).optional(),
    isDestination: z.boolean({ error: 'must be true or false' }).optional(),
    settings: settings.default({}),
  })
  .strict();
export type CreateConnectionBody = z.output<typeof createConnectionBody>;

export const updateConnectionBody = z
  .object({
    name: connectionName.optional(),
    description: description.optional(),
    workspaceId: workspaceId.optional(),
    isSource: z.boolean({ error: 'must be true or false' }).optional(),
    isDestination: z.boolean({ error: 'must be true or false' }).optional(),
    settings: settings.optional(),
  })
  .strict();
export type UpdateConnectionBody = z.output<typeof updateConnectionBody>;

export const testConnectionBody = z.preprocess((body) => body ?? {}, z.object({ settings: settings.optional() }).strict());

export const PAIR_NAME_MAX = 120;

export const pairBody = z
  .object({
    name: z.string({ error: 'must be text' }).trim().max(PAIR_NAME_MAX, `must be at most ${PAIR_NAME_MAX} characters`).optional(),
    sourceId: z.uuid({ error: 'must be a valid id' }),
    destinationId: z.uuid({ error: 'must be a valid id' }),
    isActive: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .strict();
export type PairBody = z.output<typeof pairBody>;
