import { defineContract, everyAction } from './define';

export const usersContract = defineContract({
  name: 'users',
  routes: {
    list: '/users/{offset}/{limit}',
    filter: { path: '/users/filter/{limit}/{offset}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/users/filter/props',
    cards: '/users/cards',
    one: '/users/{id}',
    create: '/user',
    update: '/user/profile/{id}',
    delete: '/users/{id}',
    // Activation is an edit of isActive (deactivating ends the user's sessions on the server).
    activate: { path: '/user/profile/{id}', method: 'PUT', body: { isActive: true } },
    deactivate: { path: '/user/profile/{id}', method: 'PUT', body: { isActive: false } },
  },
  policy: everyAction('users', 'Users', 0),
  page: { id: 'users', title: 'Users', url: '/users', group: 'access', icon: 'people', order: 7 },
  audit: { model: 'user' },
  activation: { field: 'isActive' },
});
