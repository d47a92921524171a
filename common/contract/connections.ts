import { defineContract, everyAction } from './define';

/** Connections and the pairs made of them are guarded together. */
export const connectionsPolicy = everyAction('connections', 'Connections and source/destination pairs', 4);

export const connectionsContract = defineContract({
  name: 'connections',
  routes: {
    list: '/connections/{offset}/{limit}',
    filter: { path: '/connections/filter/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/connections/filters',
    cards: '/connections/topCards',
    search: '/connections/search/{offset}/{limit}?searchText={search}',
    one: '/connection/{id}',
    create: '/connections',
    update: '/connection/{id}',
    activate: { path: '/connections/activate/{id}', body: { isActive: true } },
    deactivate: { path: '/connections/activate/{id}', body: { isActive: false } },
  },
  policy: connectionsPolicy,
  page: { id: 'connections', title: 'Connections', url: '/connections', group: 'data', icon: 'cable', order: 2 },
  audit: { model: 'connection' },
  activation: { field: 'isActive' },
});
