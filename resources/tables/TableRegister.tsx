import { Alert, Button } from '@mui/material';
import { useMemo } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { AutocompleteInput, Create, useTranslate } from 'react-admin';
import { CheckedForm } from '../../src/framework/form/CheckedForm';
import { failureText } from '../../src/framework/feedback';
import { FieldInput } from '../../src/framework/FieldInput';
import { useDeclaration } from '../../src/framework/DeclarationContext';
import { useDeclaredSave } from '../../src/framework/form/useDeclaredSave';
import { zodResolver } from '../../src/framework/zodResolver';
import { connectionHoldsTables, holdsTables, useConnectionChoices, useEndpoints } from '../connections/api';
import { endpointText } from './cells';
import { useFailureAlert } from './hooks';
import { registerTableForm, REGISTER_FIELDS } from './schemas';

/** The connections tables come from: databases, folders and buckets. */
function ConnectionPicker() {
  const translate = useTranslate();
  const { setValue } = useFormContext();
  const connections = useConnectionChoices();
  const choices = useMemo(
    () =>
      (connections.data ?? []).filter(connectionHoldsTables).map((connection) => ({
        id: connection.id,
        name: connection.isActive
          ? `${connection.name} (${connection.typeLabel})`
          : `${connection.name} (${connection.typeLabel}, ${translate('resources.tables.register.inactive')})`,
      })),
    [connections.data, translate],
  );
  return (
    <AutocompleteInput
      source="connectionId"
      label="resources.tables.fields.connectionId"
      choices={choices}
      translateChoice={false}
      isPending={connections.isPending}
      isRequired
      helperText={connections.isError ? failureText(connections.error) : 'resources.tables.register.connection_help'}
      onChange={() => setValue('endpoint', null, { shouldDirty: true })}
    />
  );
}

/** One endpoint of the chosen connection, searchable; choosing one names the table after it unless a name was typed. */
function EndpointPicker() {
  const translate = useTranslate();
  const { getValues, setValue, getFieldState } = useFormContext();
  const connectionId = useWatch({ name: 'connectionId' }) as string | null;
  const endpoints = useEndpoints(connectionId);
  useFailureAlert(endpoints.error);
  const registrable = useMemo(() => (endpoints.data ?? []).filter((endpoint) => holdsTables(endpoint.kind)), [endpoints.data]);
  const choices = useMemo(() => registrable.map((endpoint) => ({ id: endpoint.id, name: endpointText(endpoint) })), [registrable]);
  if (!connectionId) return null;
  if (endpoints.isError) {
    return (
      <Alert
        severity="error"
        sx={{ mb: 2, width: '100%' }}
        action={
          <Button color="inherit" size="small" onClick={() => void endpoints.refetch()} disabled={endpoints.isFetching}>
            {translate('resources.connections.endpoints.retry')}
          </Button>
        }
      >
        {failureText(endpoints.error)}
      </Alert>
    );
  }
  const choose = (id: string | null) => {
    const endpoint = registrable.find((candidate) => candidate.id === id);
    if (!endpoint) return;
    const previous = registrable.find((candidate) => candidate.name === getValues('name'));
    if (!getValues('name') || previous || !getFieldState('name').isDirty) setValue('name', endpoint.name, { shouldDirty: true });
  };
  return (
    <AutocompleteInput
      source="endpoint"
      label="resources.tables.fields.endpoint"
      choices={choices}
      translateChoice={false}
      isPending={endpoints.isPending}
      isRequired
      helperText="resources.tables.register.endpoint_help"
      onChange={(id: string | null) => choose(id)}
    />
  );
}

/**
 * Registers a table: a connection that holds tables or files, one of its endpoints, then the
 * table's name (the endpoint's by default), description and workspace. The connection's
 * endpoints panel leads here with both filled (`?source={"connectionId":…,"endpoint":…}`).
 */
export default function TableRegister() {
  const declaration = useDeclaration();
  const save = useDeclaredSave('create', undefined, REGISTER_FIELDS);
  const resolver = useMemo(() => zodResolver(registerTableForm), []);
  const field = (source: string) => declaration.fields.find((candidate) => candidate.source === source)!;
  return (
    <Create redirect={false}>
      <CheckedForm resolver={resolver} onSubmit={save} saveLabel="resources.tables.register.save">
        <ConnectionPicker />
        <EndpointPicker />
        <FieldInput field={field('name')} resource={declaration.name} />
        <FieldInput field={field('description')} resource={declaration.name} />
        <FieldInput field={field('workspaceId')} resource={declaration.name} />
      </CheckedForm>
    </Create>
  );
}
