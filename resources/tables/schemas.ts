import { z } from 'zod';
import { registerTableBody, tableName, updateTableBody } from '../../common/schemas/tables';

/**
 * The tables forms' rules: the server's own bodies (common/schemas/tables.ts). Those are strict
 * about unknown keys; a form also holds the record's other fields, so the forms take their rules
 * without that. The edit keeps a name (the body may leave it out, the form may not empty it);
 * the dictionary is edited on the table's page, not in this form.
 */
export const registerTableForm = z.object(registerTableBody.shape).extend({
  connectionId: z.string({ error: 'is required' }).min(1, 'is required').pipe(registerTableBody.shape.connectionId),
});

export const editTableForm = z.object(updateTableBody.omit({ columns: true }).shape).extend({ name: tableName });

/** The fields a server 400 may name on the registration form. */
export const REGISTER_FIELDS = ['connectionId', 'endpoint', 'name', 'description', 'workspaceId'];
