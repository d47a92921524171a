import { defineContract, everyAction } from './define';

export const apikeysContract = defineContract({
  name: 'apikeys',
  routes: {
    list: '/apikeys/{offset}/{limit}',
    filter: { path: '/apikey/filter/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/apikey/filter/props',
    cards: '/apikey/cards',
    one: '/apikey/{id}',
    create: '/apikey',
    update: '/apikey/{id}',
    delete: '/apikey/{id}',
    activate: '/apikey/activate/{id}',
    deactivate: '/apikey/deactivate/{id}',
  },
  policy: everyAction('apikeys', 'API keys', 3),
  page: { id: 'apikeys', title: 'API keys', url: '/apikeys', group: 'access', icon: 'vpn_key', order: 10 },
  audit: { model: 'apikey' },
  activation: { field: 'isActive' },
});
