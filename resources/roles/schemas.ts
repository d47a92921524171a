import { z } from 'zod';
import { createRoleBody, pageIdsField, policiesField, updateRoleBody } from '../../common/schemas/roles';

/** The create form is `POST /roles`'s body: name, description, policies, pageIds. */
export const roleCreateSchema = createRoleBody;

/** The edit form: the details by `PUT /roles/{id}`'s rules, with the matrix and the pages. */
export const roleEditSchema = updateRoleBody.and(z.object({ policies: policiesField, pageIds: pageIdsField }));
