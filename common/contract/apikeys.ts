import { z } from 'zod';
import { assignOperationsBody } from '../schemas/apikeys';
import { card, choice, timestamp } from './answers';
import { apiOperation, apiOperationDetail } from './answers/openapi';
import { defineAction, defineContract, everyAction } from './define';

/** An API key as every answer shows it: never the key itself nor its hash (docs/api/apikeys.md). */
export const apikeyRow = z.object({
  id: z.string(),
  name: z.string(),
  /** The 12 characters after `dok_` in the key: enough to recognise it. */
  prefix: z.string(),
  /** The user the key acts as. */
  accessUserId: z.string(),
  /** The access user's name, else their email; null when the user is gone. */
  accessUserName: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  isActive: z.boolean(),
  /** Deleted keys are kept (marked so, and inactive) for the audit's sake. */
  isDeleted: z.boolean(),
  /** Null: it never expires. */
  expiresAt: timestamp.nullable(),
  /** Updated on use, at most once a minute. */
  lastUsedAt: timestamp.nullable(),
  /** The ids of the operations it may call (`GET /openapi`). */
  operations: z.array(z.string()),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type Apikey = z.infer<typeof apikeyRow>;

/** `POST /apikey` (201): the new key's row and, in this answer only, the key itself. */
export const createdApikey = apikeyRow.extend({
  /** `dok_<prefix>_<secret>`: shown once, never again. */
  key: z.string(),
});

/** `GET /apikey/filter/props` */
export const apikeyFilterProps = z.object({
  /** Users keys act as. */
  accessUser: z.array(choice),
  /** Users who made keys. */
  createduser: z.array(choice),
  isActive: z.array(choice),
  isDeleted: z.array(choice),
});

/** `GET /apikey/cards`: `total`, `active`, `inactive`, `expired`, `deleted`, `recentlyUsed`. */
export const apikeyCards = z.object({ cards: z.array(card) });

export const apikeysContract = defineContract({
  name: 'apikeys',
  noun: { one: 'API key', many: 'API keys', title: 'name' },
  row: apikeyRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'name', type: 'text', sortable: true },
    { source: 'isActive', type: 'boolean', sortable: true },
    { source: 'expiresAt', type: 'datetime', sortable: true },
    { source: 'lastUsedAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true },
  ],
  routes: {
    list: '/apikeys/{offset}/{limit}',
    filter: { path: '/apikey/filter/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
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
  actions: {
    /** The operations of this server a key may be granted. */
    operations: defineAction({
      path: '/openapi',
      method: 'GET',
      summary: 'Operations an API key may be granted',
      data: z.array(apiOperation),
    }),
    /** `{id}` is an operation's id here (`get_workspaces`), not a record's. */
    operation: defineAction({
      path: '/openapi/{id}',
      method: 'GET',
      summary: 'One operation: its parameters and body',
      params: { id: z.string().regex(/^[a-z]+_[A-Za-z0-9_]{1,200}$/, 'must be an operation id such as get_workspaces') },
      data: apiOperationDetail,
    }),
    assignOperations: defineAction({
      path: '/openapi/assign/{id}',
      method: 'POST',
      summary: 'Replace the operations granted to an API key',
      body: assignOperationsBody,
      data: apikeyRow,
    }),
  },
});
