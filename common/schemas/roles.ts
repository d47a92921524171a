import { z } from 'zod';

/**
 * Rules for the bodies of the roles and policies calls, shared by the API and the console's forms.
 * Whether a resource, action or page exists is the server's to say (the catalogues live there);
 * these rules check shape and size.
 */

export const ROLE_NAME_MAX = 60;
export const ROLE_DESCRIPTION_MAX = 500;
/** More entries than any catalogue holds; a bigger list is a mistake or an attack. */
export const POLICY_ENTRIES_MAX = 100;
export const PAGE_IDS_MAX = 200;

export const roleNameField = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(ROLE_NAME_MAX, `must be at most ${ROLE_NAME_MAX} characters`);

export const roleDescriptionField = z
  .string({ error: 'must be text' })
  .trim()
  .max(ROLE_DESCRIPTION_MAX, `must be at most ${ROLE_DESCRIPTION_MAX} characters`);

export const policyEntry = z.object({
  resource: z.string({ error: 'is required' }).trim().min(1, 'is required').max(60, 'must be at most 60 characters'),
  actions: z
    .array(z.string({ error: 'must be a list of actions' }).trim().max(20, 'must be at most 20 characters'), {
      error: 'must be a list of actions such as ["read", "update"]',
    })
    .max(20, 'may hold at most 20 actions'),
});
export type PolicyEntry = z.infer<typeof policyEntry>;

export const policiesField = z
  .array(policyEntry, { error: 'must be a list of { resource, actions }' })
  .max(POLICY_ENTRIES_MAX, `may hold at most ${POLICY_ENTRIES_MAX} entries`);

export const pageIdsField = z
  .array(
    z
      .string({ error: 'must be a list of page ids' })
      .trim()
      .min(1, 'may not hold an empty page id')
      .max(100, 'may hold page ids of at most 100 characters'),
    {
      error: 'must be a list of page ids',
    },
  )
  .max(PAGE_IDS_MAX, `may hold at most ${PAGE_IDS_MAX} page ids`);

/** `POST /roles`. Without `pageIds` a new role gets the dashboard; `[]` gives it no page. */
export const createRoleBody = z.object({
  name: roleNameField,
  description: roleDescriptionField.default(''),
  policies: policiesField.optional(),
  pageIds: pageIdsField.optional(),
});
export type CreateRoleBody = z.infer<typeof createRoleBody>;

/** `PUT /roles/{id}`: either field, or both. Other fields of a record sent back whole are ignored. */
export const updateRoleBody = z
  .object({ name: roleNameField.optional(), description: roleDescriptionField.optional() })
  .refine((body) => body.name !== undefined || body.description !== undefined, { message: 'give a name or a description to change' });
export type UpdateRoleBody = z.infer<typeof updateRoleBody>;

/** `PUT /roles/activate/{id}`: a boolean (form posts of "true"/"false" are read as such). */
export const activateRoleBody = z.object({
  isActive: z
    .union([z.boolean(), z.literal('true'), z.literal('false')], { error: 'must be true or false' })
    .transform((value) => value === true || value === 'true'),
});

/** `PUT /policies/assign/{id}` and `POST /authorization/policies/{userId}`: the whole list, replacing the stored one. */
export const assignPoliciesBody = z.object({ policies: policiesField });

/** `PUT /roles/policies/pages/assign|unassign/{id}`. */
export const rolePagesBody = z.object({ pageIds: pageIdsField.min(1, 'choose at least one page') });
