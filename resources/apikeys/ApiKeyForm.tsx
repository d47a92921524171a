import { useMemo } from 'react';
import { DeleteButton, SaveButton, SimpleForm, Toolbar, useRefresh } from 'react-admin';
import type { FieldValues } from 'react-hook-form';
import { alerts } from '../../providers/alerts';
import { useSessionUser } from '../../src/app/session';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { failureText } from '../../src/framework/feedback';
import { FieldInput } from '../../src/framework/FieldInput';
import { zodResolver } from '../../src/framework/zodResolver';
import { AccessUserInput } from './AccessUserInput';

export type FormErrors = Record<string, string> | undefined;

function FormToolbar({ mode }: { mode: 'create' | 'edit' }) {
  const refresh = useRefresh();
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      {mode === 'edit' && (
        <DeleteButton
          mutationMode="pessimistic"
          mutationOptions={{
            onError: (error) => {
              alerts.error(failureText(error));
              refresh();
            },
          }}
        />
      )}
    </Toolbar>
  );
}

/**
 * A key's form: its name, its expiry, and (admins) who it acts as, validated by the server's
 * own rules before anything is sent.
 */
export function ApiKeyForm({ mode, onSubmit }: { mode: 'create' | 'edit'; onSubmit: (values: FieldValues) => Promise<FormErrors> }) {
  const declaration = useDeclaration();
  const user = useSessionUser();
  const schema = declaration.forms?.[mode]?.schema;
  const resolver = useMemo(() => (schema ? zodResolver(schema) : undefined), [schema]);
  const field = (source: string) => declaration.fields.find((candidate) => candidate.source === source)!;
  return (
    // noValidate: the schema is the one judge, with its own messages.
    <SimpleForm resolver={resolver} onSubmit={onSubmit} toolbar={<FormToolbar mode={mode} />} noValidate>
      <FieldInput field={field('name')} resource={declaration.name} />
      {user?.isAdmin && <AccessUserInput mode={mode} />}
      <FieldInput field={field('expiresAt')} resource={declaration.name} />
    </SimpleForm>
  );
}
