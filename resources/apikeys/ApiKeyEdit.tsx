import { Alert } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { DeclaredEdit } from '../../src/framework/form/DeclaredEdit';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { ApiKeyForm } from './ApiKeyForm';
import type { ApiKey } from './types';

const EDIT_FIELDS = ['name', 'accessUserId', 'expiresAt'];

function EditForm({ record }: { record: ApiKey }) {
  const save = useDeclaredSave('edit', record, EDIT_FIELDS);
  return <ApiKeyForm mode="edit" onSubmit={save} />;
}

/** A key's name, expiry and (admins) access user; a deleted key can no longer change. */
function EditBody() {
  const record = useRecordContext<ApiKey>();
  const translate = useTranslate();
  if (!record) return null;
  if (record.isDeleted)
    return (
      <Alert severity="info" sx={{ m: 2 }}>
        {translate('resources.apikeys.deleted_key')}
      </Alert>
    );
  return <EditForm record={record} />;
}

export default function ApiKeyEdit() {
  return (
    <DeclaredEdit>
      <EditBody />
    </DeclaredEdit>
  );
}
