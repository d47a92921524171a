import { defineContract, everyAction } from './define';

export const tablesContract = defineContract({
  name: 'tables',
  routes: {
    list: '/tables/{offset}/{limit}',
    filter: { path: '/tables/filters/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/tables/filters',
    cards: '/tables/topCards',
    search: '/tables/search/{offset}/{limit}?searchText={search}',
    one: '/table/{id}',
    create: '/table',
    update: '/table/{id}',
    activate: { path: '/table/activate/{id}', method: 'POST', body: { isActive: true } },
    deactivate: { path: '/table/activate/{id}', method: 'POST', body: { isActive: false } },
  },
  policy: everyAction('tables', 'Tables, data dictionaries and data quality', 5),
  page: { id: 'tables', title: 'Tables', url: '/tables', group: 'data', icon: 'table_chart', order: 4 },
  audit: { model: 'table' },
  activation: { field: 'isActive' },
});
