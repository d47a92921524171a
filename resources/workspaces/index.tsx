import { updateWorkspaceBody, workspaceDescription, workspaceName } from '../../common/schemas/workspaces';
import { defineResource } from '../../src/framework/types';
import { workspacesContract } from '../../common/contract/workspaces';

/** A workspace as `GET /workspaces` answers it (docs/api/workspaces.md). */
export interface Workspace {
  id: string;
  name: string;
  description: string;
  isActive: boolean;
  memberCount: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string | null;
  createdByName: string | null;
}

/**
 * The edit form is a whole record, not a partial body: the name stays required, and an emptied
 * description is sent as "" (a form body has no null, so a cleared field would otherwise not be
 * sent at all and the old text would stay).
 */
const workspaceEditForm = updateWorkspaceBody.extend({ name: workspaceName, description: workspaceDescription.default('') });

/**
 * Workspaces: one unpaged list (`GET /workspaces`), so the console pages, sorts and searches
 * it itself, and finds a record in it (there is no one-route). Create and update take form
 * bodies; (de)activation is an update of `isActive`; deleting is `PUT /workspace/{id}`.
 */
export const workspaces = defineResource<Workspace>({
  contract: workspacesContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Workspace |||| Workspaces',
      fields: {
        isActive: 'Active',
        memberCount: 'Members',
        createdByName: 'Created by',
        createdAt: 'Created',
        updatedAt: 'Updated',
      },
      filters: { search: 'Search workspaces' },
    },
  },
  fields: [
    { source: 'name', type: 'text', sortable: true, create: true, edit: true },
    { source: 'description', type: 'longtext', create: true, edit: true },
    { source: 'isActive', type: 'boolean', sortable: true },
    { source: 'memberCount', type: 'number', sortable: true },
    { source: 'createdByName', type: 'text', sortable: true },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true, list: 'hidden' },
  ],
  // The spec has no workspace filter; the search box filters the loaded list here.
  filters: [{ source: 'search', type: 'search' }],
  forms: { edit: { schema: workspaceEditForm } },
});
