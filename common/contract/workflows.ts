import { defineContract, everyAction } from './define';

/** Workflows and their runs are guarded together. */
export const workflowsPolicy = everyAction('workflows', 'Workflows and their runs', 6);

export const workflowsContract = defineContract({
  name: 'workflows',
  routes: {
    list: '/workflow/{offset}/{limit}',
    filter: { path: '/workflow/filter/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/filters/workflow',
    cards: '/workflow/topCards',
    search: '/workflow/search/{offset}/{limit}?searchText={search}',
    one: '/workflow/{id}',
    create: '/workflow',
    update: '/workflow/{id}',
    activate: { path: '/workflow/activate/{id}', method: 'POST', body: { isActive: true } },
    deactivate: { path: '/workflow/activate/{id}', method: 'POST', body: { isActive: false } },
  },
  policy: workflowsPolicy,
  page: { id: 'workflows', title: 'Workflows', url: '/workflows', group: 'data', icon: 'account_tree', order: 5 },
  audit: { model: 'workflow' },
  activation: { field: 'isActive' },
});
