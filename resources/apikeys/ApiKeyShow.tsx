import { Alert } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { DeclaredShow } from '../../src/framework/show/DeclaredShow';
import { OperationsPanel } from './OperationsPanel';
import type { ApiKey } from './types';

function DeletedNotice(_: { label?: false }) {
  const record = useRecordContext<ApiKey>();
  const translate = useTranslate();
  if (!record?.isDeleted) return null;
  return <Alert severity="info">{translate('resources.apikeys.deleted_key')}</Alert>;
}

/** A key: the declared details, then what it may call. */
export default function ApiKeyShow() {
  return (
    <DeclaredShow>
      <DeletedNotice label={false} />
      <OperationsPanel label={false} />
    </DeclaredShow>
  );
}
