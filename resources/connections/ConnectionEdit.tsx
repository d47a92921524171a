import { useCallback } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Edit, ShowButton, TopToolbar, useRecordContext } from 'react-admin';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { ConnectionForm } from './ConnectionForm';
import { FormConnectionTest } from './ConnectionTest';
import { editValues, FORM_FIELDS } from './form';
import type { Connection } from './types';

function EditForm({ record }: { record: Connection }) {
  const save = useDeclaredSave('edit', record, FORM_FIELDS);
  const submit = useCallback((values: FieldValues) => save(editValues(values, record)), [save, record]);
  return <ConnectionForm mode="edit" onSubmit={submit} keptSecrets={record.secretsSet} extra={<FormConnectionTest record={record} />} />;
}

function EditBody() {
  const record = useRecordContext<Connection>();
  return record ? <EditForm record={record} /> : null;
}

/**
 * A connection's edit: its type is fixed; the update sends what changed (settings as a whole,
 * secrets left blank kept as stored). The test on the form tries unsaved settings first.
 */
export default function ConnectionEdit() {
  return (
    <Edit
      mutationMode="pessimistic"
      actions={
        <TopToolbar>
          <ShowButton />
        </TopToolbar>
      }
    >
      <EditBody />
    </Edit>
  );
}
