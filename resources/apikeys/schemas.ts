import { z } from 'zod';
import { apiKeyExpiry, createApiKeyBody, updateApiKeyBody } from '../../common/schemas/apikeys';

/**
 * The forms' rules: the server's own bodies (common/schemas/apikeys.ts). Operations are granted
 * on the key's page, not in the create form.
 */
export const createApiKeyForm = createApiKeyBody.omit({ operations: true });

/** A timestamp as the server answers it: the edit form's untouched expiry. */
const SERVER_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An expiry in the edit form: a date the user picked must be in the future, but the one the key
 * already has is left alone (an expired key can still be renamed). It travels as typed; the
 * server reads it with the same rule.
 */
const editedExpiry = z.unknown().superRefine((value, ctx) => {
  if (value === undefined || (typeof value === 'string' && SERVER_TIMESTAMP.test(value))) return;
  const result = apiKeyExpiry.safeParse(value);
  if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
});

export const editApiKeyForm = updateApiKeyBody.extend({ expiresAt: editedExpiry.optional() });
