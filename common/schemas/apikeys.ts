import { z } from 'zod';

/**
 * Rules for the bodies of the API-keys area, shared by the server and the console's forms.
 * Whether an operation id exists is the server's to say (it knows its own routes); the shape of
 * an id is checked here.
 */

export const API_KEY_NAME_MAX = 80;
export const API_KEY_OPERATIONS_MAX = 500;

export const apiKeyName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(API_KEY_NAME_MAX, `must be at most ${API_KEY_NAME_MAX} characters`);

/** `get_users_offset_limit`: a lower-case method, then the path's segments joined by underscores. */
export const OPERATION_ID_PATTERN = /^(get|post|put|patch|delete)_[A-Za-z0-9_]{1,200}$/;
export const operationId = z
  .string({ error: 'must be a list of operation ids' })
  .regex(OPERATION_ID_PATTERN, 'must be operation ids such as get_workspaces');

export const operationIds = z
  .array(operationId, { error: 'must be a list of operation ids' })
  .max(API_KEY_OPERATIONS_MAX, `may hold at most ${API_KEY_OPERATIONS_MAX} operations`)
  .transform((ids) => [...new Set(ids)]);

/**
 * When the key stops working: an ISO date or timestamp in the future (a bare date means the start
 * of that day, UTC); empty or null means never.
 */
export const apiKeyExpiry = z
  .union([z.string({ error: 'must be a date such as 2030-01-31' }), z.null()], { error: 'must be a date such as 2030-01-31' })
  .transform((value, ctx): Date | null => {
    if (value == null || value.trim() === '') return null;
    const text = value.trim();
    const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text);
    if (text.length > 40 || Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be a date such as 2030-01-31' });
      return z.NEVER;
    }
    if (date.getTime() <= Date.now()) {
      ctx.addIssue({ code: 'custom', message: 'must be in the future' });
      return z.NEVER;
    }
    return date;
  });

export const accessUserId = z.uuid({ error: 'must be a valid id' });

export const createApiKeyBody = z.object({
  name: apiKeyName,
  accessUserId: accessUserId.optional(),
  expiresAt: apiKeyExpiry.optional(),
  operations: operationIds.optional(),
});

export const updateApiKeyBody = z.object({
  name: apiKeyName.optional(),
  accessUserId: accessUserId.optional(),
  expiresAt: apiKeyExpiry.optional(),
});

export const assignOperationsBody = z.object({
  operations: z
    .array(operationId, { error: 'is required: a list of operation ids' })
    .max(API_KEY_OPERATIONS_MAX, `may hold at most ${API_KEY_OPERATIONS_MAX} operations`)
    .transform((ids) => [...new Set(ids)]),
});

export type CreateApiKeyBody = z.infer<typeof createApiKeyBody>;
export type UpdateApiKeyBody = z.infer<typeof updateApiKeyBody>;
