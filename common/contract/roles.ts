import { defineContract, everyAction } from './define';

export const rolesContract = defineContract({
  name: 'roles',
  routes: {
    list: '/roles/{offset}/{limit}',
    filter: { path: '/roles/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'updatedAt', order: 'DESC' } },
    search: { path: '/roles/search/{offset}/{limit}', pagingInBody: true },
    filterProps: '/roles/filter/props/',
    cards: '/roles/cards',
    one: '/role/{id}',
    create: '/roles',
    update: '/roles/{id}',
    activate: { path: '/roles/activate/{id}', body: { isActive: true } },
    deactivate: { path: '/roles/activate/{id}', body: { isActive: false } },
    delete: '/roles/{id}',
  },
  policy: everyAction('roles', 'Roles and policies', 1),
  page: { id: 'roles', title: 'Roles and policies', url: '/roles', group: 'access', icon: 'admin_panel_settings', order: 8 },
  audit: { model: 'role' },
  activation: { field: 'isActive' },
});
