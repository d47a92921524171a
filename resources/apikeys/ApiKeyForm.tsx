import { useMemo } from 'react';
import { SimpleForm } from 'react-admin';
import { FormToolbar } from '../../src/framework/form/DeclaredForm';
import type { FieldValues } from 'react-hook-form';
import { useSessionUser } from '../../src/app/session';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { FieldInput } from '../../src/framework/FieldInput';
import { zodResolver } from '../../src/framework/zodResolver';
import { AccessUserInput } from './AccessUserInput';

export type FormErrors = Record<string, string> | undefined;

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
    <SimpleForm resolver={resolver} onSubmit={onSubmit} toolbar={<FormToolbar mode={mode} />} noValidate warnWhenUnsavedChanges>
      <FieldInput field={field('name')} resource={declaration.name} />
      {user?.isAdmin && <AccessUserInput mode={mode} />}
      <FieldInput field={field('expiresAt')} resource={declaration.name} />
    </SimpleForm>
  );
}
