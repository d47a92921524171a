import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { outboxContract } from '../../common/contract/outbox';

/** A mail the server composed (`GET /mail/outbox/{offset}/{limit}`, `GET /mail/outbox/{id}`). */
export interface Mail {
  id: string;
  toAddress: string;
  subject: string;
  kind: string;
  status: string;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  text?: string | null;
}

/**
 * The mail outbox (admins): every mail the server composed, newest first (the server's order),
 * read-only. Its show view is its own: the text body with clickable links.
 */
export const outbox = defineResource<Mail>({
  contract: outboxContract,
  recordRepresentation: 'subject',
  messages: {
    en: {
      name: 'Mail |||| Mail outbox',
      fields: {
        createdAt: 'Created',
        toAddress: 'To',
        sentAt: 'Sent',
        text: 'Message',
      },
      no_body: 'This mail has no text body.',
    },
  },
  fields: [
    { source: 'createdAt', type: 'datetime' },
    { source: 'toAddress', type: 'email' },
    { source: 'subject', type: 'text' },
    { source: 'kind', type: 'text' },
    { source: 'status', type: 'status', colors: { sent: 'success', failed: 'error' } },
    { source: 'sentAt', type: 'datetime', list: 'hidden' },
    { source: 'error', type: 'text', list: 'hidden' },
  ],
  list: { rowClick: 'show' },
  views: { show: lazy(() => import('../../src/app/outbox/OutboxShow')) },
});
