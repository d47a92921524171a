import { z } from 'zod';
import { answer, timestamp } from './answers';
import { defineContract } from './define';

/** `stored` (no SMTP server configured: the outbox is where it is read), `sent`, or `failed` (see `error`). */
export const MAIL_STATUSES = ['stored', 'sent', 'failed'] as const;

/** A mail of the outbox as its list answers it (`GET /mail/outbox/{offset}/{limit}`). */
export const outboxRow = z.object({
  id: z.string(),
  toAddress: z.string(),
  subject: z.string(),
  /** What the mail is for: `activation`, `password_reset`, `password_changed`, `report`, `share`, `job_failed`, … */
  kind: z.string(),
  status: z.enum(MAIL_STATUSES),
  /** Why sending failed. */
  error: z.string().nullable(),
  createdAt: timestamp,
  /** Null until it is sent through SMTP. */
  sentAt: timestamp.nullable(),
});
/** One mail of the outbox, as a row. */
export type Outbox = z.infer<typeof outboxRow>;

/** `GET /mail/outbox/{id}`: the row with the mail's text and, when it has one, its HTML. */
export const outboxMail = outboxRow.extend({ text: z.string(), html: z.string().nullable() });
export type OutboxMail = z.infer<typeof outboxMail>;

/** `GET /mail/outbox/{offset}/{limit}`: a page of mails, newest first, with the exact count of all (no `countExact`). */
export const outboxListAnswer = answer(z.object({ rows: z.array(outboxRow), count: z.number().int() }));

/** `GET /mail/outbox/{id}` */
export const outboxMailAnswer = answer(outboxMail);

export const outboxContract = defineContract({
  name: 'outbox',
  row: outboxRow,
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
