import { z } from 'zod';
import { createWorkspaceBody, updateWorkspaceBody } from '../schemas/workspaces';
import { timestamp } from './answers';
import { defineContract, everyAction } from './define';

/** A workspace as the list, the changes and the picker's source answer it (docs/api/workspaces.md). */
export const workspaceRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  /** Users who belong to it. */
  memberCount: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
  createdBy: z.string().nullable(),
  /** The creator's name, else their email; null when the creator is gone. */
  createdByName: z.string().nullable(),
});
export type Workspace = z.infer<typeof workspaceRow>;

/** `PUT /workspace` with the record's id in the form body, as every change of a workspace. */
const workspaceUpdate = { path: '/workspace', method: 'PUT', encoding: 'form', idField: 'id' } as const;

export const workspacesContract = defineContract({
  name: 'workspaces',
  noun: { one: 'workspace', many: 'workspaces', title: 'name', updated: 'updated' },
  row: workspaceRow,
  bodies: { create: createWorkspaceBody, update: updateWorkspaceBody },
  routes: {
    list: '/workspaces',
    create: { path: '/workspaces', encoding: 'form' },
    update: workspaceUpdate,
    activate: { ...workspaceUpdate, body: { isActive: true } },
    deactivate: { ...workspaceUpdate, body: { isActive: false } },
    delete: { path: '/workspace/{id}', method: 'PUT' },
  },
  policy: everyAction('workspaces', 'Workspaces', 2),
  page: { id: 'workspaces', title: 'Workspaces', url: '/workspaces', group: 'access', icon: 'workspaces', order: 9 },
  audit: { model: 'workspace' },
  activation: { field: 'isActive' },
});
