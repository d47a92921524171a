import AddIcon from '@mui/icons-material/Add';
import { Button, MenuItem, TextField } from '@mui/material';
import { useMemo, useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useController, useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { failureText } from '../../src/framework/feedback';
import { FormDialog } from '../../src/framework/form/FormDialog';
import { useConnectionChoices } from './api';
import { usePairActions } from './hooks';
import { pairName, pairNameRule } from './pairs';
import type { Connection } from './types';

interface NewPairValues {
  sourceId: string;
  destinationId: string;
  name: string;
}

/** One of the pair's two connections, picked among those that may play that part. */
function ConnectionSelect({
  source,
  label,
  choices,
  onPicked,
  loadError,
}: {
  source: 'sourceId' | 'destinationId';
  label: string;
  choices: readonly Connection[];
  onPicked: () => void;
  loadError?: string;
}) {
  const translate = useTranslate();
  const { field, fieldState } = useController<NewPairValues, typeof source>({ name: source });
  return (
    <TextField
      select
      required
      label={label}
      name={field.name}
      inputRef={field.ref}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(event) => {
        field.onChange(event.target.value);
        onPicked();
      }}
      error={Boolean(fieldState.error)}
      helperText={
        fieldState.error?.message ??
        loadError ??
        (choices.length === 0 ? translate('resources.connections.pairs.no_candidates') : undefined)
      }
    >
      {choices.map((choice) => (
        <MenuItem key={choice.id} value={choice.id}>
          {choice.name} ({choice.typeLabel})
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The source, the destination (never the source itself), and a name that follows them until someone types another. */
function NewPairInputs() {
  const translate = useTranslate();
  const all = useConnectionChoices();
  const { watch, setValue, getValues } = useFormContext<NewPairValues>();
  const { field: name, fieldState: nameState } = useController<NewPairValues, 'name'>({ name: 'name' });
  const [named, setNamed] = useState(false);
  const connections = all.data ?? [];
  const sourceId = watch('sourceId');
  const loadError = all.isError ? failureText(all.error) : undefined;
  const suggest = () => {
    if (named) return;
    const { sourceId: from, destinationId: to } = getValues();
    const source = connections.find((c) => c.id === from);
    const destination = connections.find((c) => c.id === to);
    setValue('name', source && destination ? pairName(source.name, destination.name) : '');
  };
  return (
    <>
      <ConnectionSelect
        source="sourceId"
        label={translate('resources.connections.pairs.source')}
        choices={connections.filter((c) => c.isSource)}
        loadError={loadError}
        onPicked={() => {
          if (getValues('destinationId') === getValues('sourceId')) setValue('destinationId', '');
          suggest();
        }}
      />
      <ConnectionSelect
        source="destinationId"
        label={translate('resources.connections.pairs.destination')}
        choices={connections.filter((c) => c.isDestination && c.id !== sourceId)}
        loadError={loadError}
        onPicked={suggest}
      />
      <TextField
        required
        label={translate('resources.connections.pairs.name')}
        name={name.name}
        inputRef={name.ref}
        value={name.value}
        onBlur={name.onBlur}
        onChange={(event) => {
          setNamed(true);
          name.onChange(event.target.value);
        }}
        error={Boolean(nameState.error)}
        helperText={nameState.error?.message}
      />
    </>
  );
}

/** "Create" on the pairs list: a pair of any source and destination, as a connection's page adds one. */
export function PairCreateButton() {
  const translate = useTranslate();
  const { canAccess: mayUpdate } = useCanAccess({ resource: 'connections', action: 'edit' });
  const actions = usePairActions();
  const [open, setOpen] = useState(false);
  const schema = useMemo(
    () =>
      z
        .object({
          sourceId: z.string().min(1, translate('resources.connections.pairs.choose_source')),
          destinationId: z.string().min(1, translate('resources.connections.pairs.choose_destination')),
          name: pairNameRule,
        })
        .refine((values) => values.sourceId !== values.destinationId, {
          path: ['destinationId'],
          message: translate('resources.connections.pairs.same_connection'),
        }),
    [translate],
  );
  if (mayUpdate !== true) return null;
  return (
    <>
      <Button size="small" startIcon={<AddIcon />} onClick={() => setOpen(true)}>
        {translate('ra.action.create')}
      </Button>
      {open && (
        <FormDialog
          title={translate('resources.connections.pairs.add_title')}
          defaultValues={{ sourceId: '', destinationId: '', name: '' }}
          schema={schema}
          onSubmit={async (values: NewPairValues) => ((await actions.add(values)) ? null : false)}
          onClose={() => setOpen(false)}
          saveLabel="resources.connections.pairs.add"
          busy={actions.busy !== null}
          contentSx={{ display: 'grid', gap: 2, pt: '8px !important' }}
        >
          <NewPairInputs />
        </FormDialog>
      )}
    </>
  );
}
