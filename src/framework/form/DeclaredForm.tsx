import { useMemo } from 'react';
import { useFormState } from 'react-hook-form';
import Typography from '@mui/material/Typography';
import {
  DeleteButton,
  SaveButton,
  SimpleForm,
  Toolbar,
  useRecordContext,
  useRefresh,
  useResourceContext,
  type RaRecord,
} from 'react-admin';
import { z, type ZodType } from 'zod';
import { alerts } from '../../../providers/alerts';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf, formFields } from '../declaration';
import { failureText } from '../feedback';
import { FieldInput } from '../FieldInput';
import type { AnyResourceDeclaration, FieldDeclaration } from '../types';
import { zodResolver } from '../zodResolver';
import { useDeclaredSave } from './useDeclaredSave';
import { Refused, useRefusal } from '../list/refusals';

/** The form's schema: the declaration's, else the contract's create or update body, else one made of the fields' own rules. */
export function formSchema(
  declaration: AnyResourceDeclaration,
  mode: 'create' | 'edit',
  fields: readonly FieldDeclaration[],
): ZodType | undefined {
  const declared = declaration.forms?.[mode]?.schema ?? declaration.contract?.bodies?.[mode === 'create' ? 'create' : 'update'];
  if (declared) return declared;
  const rules = fields.filter((field) => field.validate);
  if (rules.length === 0) return undefined;
  return z.object(Object.fromEntries(rules.map((field) => [field.source, field.validate!])));
}

/** The record as the form starts from it: fields with `fromRecord` take their value from it. */
export function formRecord(record: RaRecord | undefined, fields: readonly FieldDeclaration[]): RaRecord | undefined {
  if (!record) return record;
  const derived = fields.filter((field) => field.fromRecord);
  if (derived.length === 0) return record;
  return { ...record, ...Object.fromEntries(derived.map((field) => [field.source, field.fromRecord!(record)])) };
}

/** A problem of the form as a whole (the schema's root error), beside the buttons it blocks. */
export function FormProblem() {
  const { errors } = useFormState();
  const message = errors.root?.message;
  if (!message) return null;
  return (
    <Typography role="alert" color="error" variant="body2" sx={{ flex: 1, mx: 2 }}>
      {String(message)}
    </Typography>
  );
}

/** Save, the form's problem, and on an edit the delete the declaration allows (a failed delete says why; a refused one, why not). */
export function FormToolbar({ mode }: { mode: 'create' | 'edit' }) {
  const declaration = useDeclaration();
  const refresh = useRefresh();
  const refusal = useRefusal('delete', useRecordContext());
  const canDelete = mode === 'edit' && capabilitiesOf(declaration).delete;
  return (
    <Toolbar sx={{ display: 'flex', justifyContent: 'space-between' }}>
      <SaveButton />
      <FormProblem />
      {canDelete && refusal && <Refused refusal={refusal} control={(reason) => <DeleteButton disabled aria-description={reason} />} />}
      {canDelete && !refusal && (
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
 * A declared resource's form (react-admin's SimpleForm over react-hook-form): the fields marked
 * for this form, validated by the declaration's zod schema before anything is sent.
 */
export function DeclaredForm({ mode }: { mode: 'create' | 'edit' }) {
  const declaration = useDeclaration();
  const resource = useResourceContext()!;
  const record = useRecordContext();
  const fields = useMemo(() => formFields(declaration, mode), [declaration, mode]);
  const schema = useMemo(() => formSchema(declaration, mode, fields), [declaration, mode, fields]);
  const resolver = useMemo(() => (schema ? zodResolver(schema) : undefined), [schema]);
  const initial = useMemo(() => formRecord(record, fields), [record, fields]);
  const sources = useMemo(() => fields.map((field) => field.source), [fields]);
  const save = useDeclaredSave(mode, initial, sources);

  return (
    // noValidate: the schema is the one judge, with its own messages (the browser's would block it silently).
    <SimpleForm
      record={initial}
      resolver={resolver}
      onSubmit={save}
      toolbar={<FormToolbar mode={mode} />}
      noValidate
      // Leaving with unsaved changes asks first (the console's router holds the move: ./routerProvider.ts).
      warnWhenUnsavedChanges
    >
      {fields.map((field) => (
        <FieldInput key={field.source} field={field} resource={resource} />
      ))}
    </SimpleForm>
  );
}
