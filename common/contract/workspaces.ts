import { defineContract, everyAction } from './define';

/** `PUT /workspace` with the record's id in the form body, as every change of a workspace. */
const workspaceUpdate = { path: '/workspace', method: 'PUT', encoding: 'form', idField: 'id' } as const;

export const workspacesContract = defineContract({
  name: 'workspaces',
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
