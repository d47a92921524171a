import { z } from 'zod';
import { card, choice, timestamp } from './answers';
import { defineContract } from './define';

/** A system-audit entry: who changed what, and how (docs/api/audits.md). */
export const auditRow = z.object({
  id: z.string(),
  /** The entity changed: `user`, `role`, `company`, `session`, … */
  model: z.string(),
  /** `create`, `update`, `delete`, `activate`, `deactivate`, or a verb of the entity. */
  operation: z.string(),
  /** The id (or key) of the record changed. */
  recordId: z.string().nullable(),
  /** Who made the change; null for the system. */
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  /** Their full name, else their email. */
  userName: z.string().nullable(),
  /** When an admin made it while impersonating the user: the admin. */
  impersonatorUserId: z.string().nullable(),
  impersonatorEmail: z.string().nullable(),
  /** The API key the change was made with, acting as the user; null for a signed-in session. */
  apiKeyId: z.string().nullable(),
  apiKeyName: z.string().nullable(),
  /** What changed, as the entity words it (usually `{ before, after }`). */
  changes: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string().nullable(),
  createdAt: timestamp,
});
export type Audit = z.infer<typeof auditRow>;

/** `GET /system/audits/filter/props`: the models, operations and users the company's entries have. */
export const auditFilterProps = z.object({ model: z.array(choice), operation: z.array(choice), user: z.array(choice) });

/** `GET /system/audits/cards`: `total`, `today`, `last7Days`, `users7Days`. */
export const auditCards = z.object({ cards: z.array(card) });

export const auditsContract = defineContract({
  name: 'audits',
  noun: { one: 'system audit', many: 'system audits' },
  row: auditRow,
  // What the filter orders by (`?sort=`; a refused one names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'model', type: 'text', sortable: true },
    { source: 'operation', type: 'text', sortable: true },
  ],
  routes: {
    list: '/system/audits/{offset}/{limit}',
    filter: {
      path: '/system/audits/filter/{offset}/{limit}?sort={field}&order={order}',
      pagingInBody: true,
      sort: { field: 'createdAt', order: 'DESC' },
    },
    filterProps: '/system/audits/filter/props',
    cards: '/system/audits/cards',
  },
  policy: { resource: 'audits', label: 'System audits', actions: ['read'], order: 8 },
  page: { id: 'audits', title: 'System audits', url: '/audits', group: 'administration', icon: 'history', order: 18 },
});
