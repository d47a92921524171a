import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { changedFields } from './ChangesDiff';
import { PersonCell, personText } from './PersonCell';
import { auditsContract } from '../../common/contract/audits';

/** A system audit entry (`GET /system/audits/{offset}/{limit}`, docs/api/audits.md). */
export interface AuditEntry {
  id: string;
  model: string;
  operation: string;
  recordId: string | null;
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  impersonatorUserId: string | null;
  impersonatorEmail: string | null;
  /** The API key the change was made with (a server may not say: then absent). */
  apiKeyName?: string | null;
  changes: unknown;
  ip: string | null;
  createdAt: string;
}

/**
 * System audits: one entry per change made to the company's data, newest first (the server's
 * only order), read-only. The server has no route for one entry: the show view keeps the row
 * the list gave (resources/audits/RowRecordShow.tsx) and adds the before/after table.
 */
export const audits = defineResource<AuditEntry>({
  contract: auditsContract,
  recordRepresentation: (entry) => `${entry.model} ${entry.operation}`,
  messages: {
    en: {
      name: 'System audit |||| System audits',
      fields: {
        createdAt: 'Time',
        userName: 'User',
        impersonatorEmail: 'Acting admin',
        apiKeyName: 'API key',
        recordId: 'Record',
        ip: 'Address',
      },
      filters: { model: 'Model', operation: 'Operation', user: 'User', search: 'Search audits' },
      system: 'System',
      deleted_user: 'Removed user',
      changes: {
        field: 'Field',
        before: 'Before',
        after: 'After',
        empty: 'empty',
        none: 'No field changed.',
      },
    },
  },
  fields: [
    { source: 'createdAt', type: 'datetime' },
    {
      source: 'userName',
      type: 'text',
      render: (entry) => (
        <PersonCell
          name={entry.userName}
          email={entry.userEmail}
          missing={entry.userId ? 'resources.audits.deleted_user' : 'resources.audits.system'}
        />
      ),
      exportValue: (entry) => personText(entry.userName, entry.userEmail),
    },
    { source: 'impersonatorEmail', type: 'text' },
    { source: 'apiKeyName', type: 'text', list: 'hidden' },
    { source: 'model', type: 'select', choices: { filterProps: 'model' } },
    { source: 'operation', type: 'select', choices: { filterProps: 'operation' } },
    { source: 'recordId', type: 'text', list: 'hidden' },
    { source: 'ip', type: 'text' },
    {
      // In the list: the names of the fields changed; the show view has the whole table.
      source: 'changes',
      type: 'json',
      list: 'hidden',
      show: false,
      render: (entry) =>
        changedFields(entry.changes)
          .map((change) => change.field)
          .join(', '),
      exportValue: (entry) => (entry.changes == null ? '' : JSON.stringify(entry.changes)),
    },
  ],
  // Exactly the spec's system audit filter; offset and limit travel in the body too (pagingInBody).
  filters: [
    { source: 'model', type: 'multiselect' },
    { source: 'operation', type: 'multiselect' },
    { source: 'user', type: 'autocomplete' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  can: { create: false, edit: false, delete: false, activate: false, export: true },
  list: { rowClick: 'show' },
  views: { show: lazy(() => import('./AuditShow')) },
});
