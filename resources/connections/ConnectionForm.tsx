import { Box, Typography } from '@mui/material';
import { useMemo, type ReactNode } from 'react';
import { useWatch, type FieldValues } from 'react-hook-form';
import { BooleanInput, useTranslate } from 'react-admin';
import { CheckedForm } from '../../src/framework/form/CheckedForm';
import { connectionTypeOf, type SettingsFormDeclaration } from '../../common/connections';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { FieldInput } from '../../src/framework/FieldInput';
import { connectionResolver, type ConnectionFormValues } from './form';
import { SettingsInputs } from './SettingsInputs';
import { TypePicker } from './TypePicker';
import { useTypeTexts } from './typeTexts';

export type FormErrors = Record<string, string> | undefined;

/** An edit cannot change the type: it is named, with what it is. */
function TypeSummary() {
  const type = useWatch({ name: 'type' }) as string;
  const texts = useTypeTexts();
  const translate = useTranslate();
  const declaration = connectionTypeOf(type);
  if (!declaration) return null;
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary">
        {translate('resources.connections.fields.type')}
      </Typography>
      <Typography variant="subtitle1">{texts.label(declaration)}</Typography>
      <Typography variant="body2" color="text.secondary">
        {texts.description(declaration)}
      </Typography>
    </Box>
  );
}

/** The parts a source/destination pair lets this type play; none for chat and code integrations. */
function RoleSwitches({ declaration }: { declaration?: SettingsFormDeclaration }) {
  const type = useWatch({ name: 'type' }) as string;
  const roles = (declaration ?? connectionTypeOf(type))?.roles ?? [];
  return (
    <>
      {roles.includes('source') && (
        <BooleanInput source="isSource" label="resources.connections.fields.isSource" helperText="resources.connections.helpers.isSource" />
      )}
      {roles.includes('destination') && (
        <BooleanInput
          source="isDestination"
          label="resources.connections.fields.isDestination"
          helperText="resources.connections.helpers.isDestination"
        />
      )}
    </>
  );
}

export interface ConnectionFieldsProps {
  keptSecrets: ReadonlySet<string>;
  extra?: ReactNode;
  /** The type's declaration as the caller has it (the marketplace's); else the catalogue's, by the form's `type`. */
  declaration?: SettingsFormDeclaration;
}

/**
 * Everything after the type, once there is one: name, description, workspace, the roles the type
 * allows and its settings. Needs the connections declaration in context (the connection forms
 * have it; the marketplace's dialog provides it).
 */
export function ConnectionFields({ keptSecrets, extra, declaration: typeDeclaration }: ConnectionFieldsProps) {
  const declaration = useDeclaration();
  const translate = useTranslate();
  const type = useWatch({ name: 'type' }) as string | undefined;
  if (!type) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.connections.form.type_first')}
      </Typography>
    );
  }
  const field = (source: string) => declaration.fields.find((candidate) => candidate.source === source)!;
  return (
    <>
      <FieldInput field={field('name')} resource={declaration.name} />
      <FieldInput field={field('description')} resource={declaration.name} />
      <FieldInput field={field('workspaceId')} resource={declaration.name} />
      <RoleSwitches declaration={typeDeclaration} />
      <SettingsInputs keptSecrets={keptSecrets} declaration={typeDeclaration} />
      {extra}
    </>
  );
}

export interface ConnectionFormProps {
  mode: 'create' | 'edit';
  onSubmit: (values: FieldValues) => Promise<FormErrors>;
  defaultValues?: ConnectionFormValues;
  /** On an edit: the secrets already stored (blank keeps them). */
  keptSecrets?: readonly string[];
  /** Shown after the settings (the edit form's test). */
  extra?: ReactNode;
}

/**
 * A connection's form: the type first (fixed once made), then its name, description,
 * workspace, the roles the type allows, and the settings generated from the type's
 * declarations, all checked before anything is sent.
 */
export function ConnectionForm({ mode, onSubmit, defaultValues, keptSecrets = [], extra }: ConnectionFormProps) {
  const kept = useMemo(() => new Set(keptSecrets), [keptSecrets]);
  const resolver = useMemo(() => connectionResolver(mode, kept), [mode, kept]);
  return (
    // noValidate: the declarations are the one judge, with their own messages.
    <CheckedForm defaultValues={defaultValues} resolver={resolver} onSubmit={onSubmit}>
      {mode === 'create' ? <TypePicker /> : <TypeSummary />}
      <ConnectionFields keptSecrets={kept} extra={extra} />
    </CheckedForm>
  );
}
