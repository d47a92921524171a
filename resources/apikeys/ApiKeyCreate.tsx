import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Create, useCreatePath, useDataProvider, useRedirect, useTranslate } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../providers/alerts';
import { failureText } from '../../src/framework/feedback';
import { ApiKeyForm, type FormErrors } from './ApiKeyForm';
import { SecretDialog } from './SecretDialog';
import type { CreatedApiKey } from './types';

const FORM_FIELDS = ['name', 'accessUserId', 'expiresAt'];

/** A 400 naming one of the form's fields (`"expiresAt: must be in the future"`) is marked on it too. */
function fieldErrorsOf(message: string): FormErrors {
  const match = /^([\w.]+): (.+)$/.exec(message);
  return match && FORM_FIELDS.includes(match[1]) ? { [match[1]]: match[2] } : undefined;
}

interface Created {
  id: string;
  name: string;
  key: string | null;
}

/**
 * A new key: the create call goes straight through the dataProvider (not a cached mutation), so
 * the secret it answers is held only by the dialog that shows it; then the key's page.
 */
export default function ApiKeyCreate() {
  const dataProvider = useDataProvider();
  const queryClient = useQueryClient();
  const redirect = useRedirect();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const [created, setCreated] = useState<Created | null>(null);

  const save = useCallback(
    async (values: FieldValues): Promise<FormErrors> => {
      alerts.loading();
      try {
        const result = await dataProvider.create('apikeys', { data: values });
        const record = result.data as CreatedApiKey;
        const message = (result.meta as { message?: string } | undefined)?.message ?? translate('app.form.created');
        alerts.success(message, { keepFor: createPath({ resource: 'apikeys', type: 'show', id: record.id }) });
        await queryClient.invalidateQueries({ queryKey: ['apikeys'] });
        setCreated({ id: String(record.id), name: record.name, key: typeof record.key === 'string' ? record.key : null });
        return undefined;
      } catch (error) {
        const message = failureText(error);
        alerts.error(message);
        return fieldErrorsOf(message);
      }
    },
    [dataProvider, queryClient, createPath, translate],
  );

  const done = () => {
    const id = created!.id;
    setCreated(null);
    redirect('show', 'apikeys', id);
  };

  return (
    <>
      <Create redirect={false}>
        <ApiKeyForm mode="create" onSubmit={save} />
      </Create>
      <SecretDialog created={created} onDone={done} />
    </>
  );
}
