import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Show, SimpleShowLayout, useNotify, useRedirect, useResourceContext, type Identifier } from 'react-admin';
import { useParams } from 'react-router';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { fieldLabelKey, showFields } from '../../src/framework/declaration';
import { FieldValue } from '../../src/framework/FieldValue';

/**
 * The show view of a list the server offers no one-route for, whose entries never change
 * (audit entries, access events). Without a one-route the dataProvider finds a record by reading
 * the newest 1000 rows of the list, which misses a row clicked on a later page or in a filtered
 * list of older entries. The list has already put every row it showed in react-admin's record
 * cache, so the record clicked is kept from there and never read again (it cannot have changed);
 * only a record opened by its URL alone is looked up in the list.
 */
export function RowRecordShow({ children }: { children?: ReactNode }) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const { id } = useParams<{ id: string }>();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const redirect = useRedirect();
  const cached = (recordId: Identifier | undefined) =>
    recordId !== undefined && queryClient.getQueryData([resource, 'getOne', { id: String(recordId), meta: undefined }]) !== undefined;

  return (
    <Show
      queryOptions={{
        staleTime: Infinity,
        onError: () => {
          // A reload of every query (the app bar's refresh) must not lose the row the list gave.
          if (cached(id)) return;
          notify('ra.notification.item_doesnt_exist', { type: 'error' });
          redirect('list', resource);
        },
      }}
    >
      <SimpleShowLayout>
        {showFields(declaration).map((field) => (
          <FieldValue key={field.source} field={field} source={field.source} label={fieldLabelKey(declaration.name, field)} />
        ))}
        {children}
      </SimpleShowLayout>
    </Show>
  );
}
