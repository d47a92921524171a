import { defineContract } from './define';

export const outboxContract = defineContract({
  name: 'outbox',
  routes: {
    list: '/mail/outbox/{offset}/{limit}',
    one: '/mail/outbox/{id}',
  },
  policy: { resource: 'outbox', label: 'Mail outbox', actions: ['read'], order: 11 },
  page: {
    id: 'outbox',
    title: 'Mail outbox',
    url: '/outbox',
    group: 'administration',
    icon: 'outgoing_mail',
    adminOnly: true,
    order: 20,
  },
});
