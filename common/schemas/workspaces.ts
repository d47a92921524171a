import { z } from 'zod';

/**
 * Rules for the bodies of the workspaces area, shared by the server and the console's forms.
 * The create and edit calls take form bodies, so every value may arrive as text: booleans
 * accept "true"/"false" as well as true/false.
 */

export const WORKSPACE_NAME_MAX = 80;
export const WORKSPACE_DESCRIPTION_MAX = 500;

export const workspaceName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(WORKSPACE_NAME_MAX, `must be at most ${WORKSPACE_NAME_MAX} characters`);

export const workspaceDescription = z
  .union([z.string().trim().max(WORKSPACE_DESCRIPTION_MAX, `must be at most ${WORKSPACE_DESCRIPTION_MAX} characters`), z.null()], {
    error: 'must be text',
  })
  .transform((value) => value ?? '');

/** true/false, or their text from a form. */
export const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false'])], { error: 'must be true or false' })
  .transform((value) => value === true || value === 'true');

export const workspaceId = z.uuid({ error: 'must be a valid id' });

export const createWorkspaceBody = z.object({
  name: workspaceName,
  description: workspaceDescription.optional().transform((value) => value ?? ''),
});

export const updateWorkspaceBody = z.object({
  id: workspaceId,
  name: workspaceName.optional(),
  description: workspaceDescription.optional(),
  isActive: formBoolean.optional(),
});

export type CreateWorkspaceBody = z.infer<typeof createWorkspaceBody>;
export type UpdateWorkspaceBody = z.infer<typeof updateWorkspaceBody>;
