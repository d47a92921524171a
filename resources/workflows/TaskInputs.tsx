import { Box } from '@mui/material';
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { AutocompleteArrayInput, NumberInput, RadioButtonGroupInput, SelectInput, TextInput, useTranslate } from 'react-admin';
import { COPY_MODES, type TaskType } from '../../common/schemas/workflows';
import { failureText } from '../../src/framework/feedback';
import { ChipsInput } from '../../src/framework/form/ChipsInput';
import { useTableChoices } from './api';
import { ConnectionSelect } from './FormParts';
import { RepositoryFilePicker } from './RepositoryFilePicker';

const MONOSPACE = { '& input, & textarea': { fontFamily: 'monospace' } };
const label = (key: string) => `resources.workflows.tasks.${key}`;
/** Addresses pasted at once: commas, semicolons, spaces. */
export const ADDRESS_SEPARATOR = /[\s,;]+/;

function CopyTaskInputs({ index }: { index: number }) {
  const translate = useTranslate();
  const kind = useWatch({ name: `tasks.${index}.sourceKind` }) as string;
  const task = (field: string) => `tasks.${index}.${field}`;
  return (
    <>
      <RadioButtonGroupInput
        source={task('sourceKind')}
        label={label('read_from')}
        row
        helperText={false}
        choices={[
          { id: 'table', name: translate(label('source_table')) },
          { id: 'query', name: translate(label('source_query')) },
        ]}
      />
      {kind === 'query' ? (
        <TextInput
          source={task('from.query')}
          label={label('query')}
          helperText={label('query_help')}
          isRequired
          multiline
          minRows={3}
          sx={MONOSPACE}
        />
      ) : (
        <TextInput source={task('from.table')} label={label('source_table')} helperText={label('table_help')} isRequired sx={MONOSPACE} />
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <TextInput
          source={task('to.table')}
          label={label('destination_table')}
          helperText={false}
          isRequired
          sx={{ flex: 1, minWidth: 240, ...MONOSPACE }}
        />
        <SelectInput
          source={task('to.mode')}
          label={label('mode')}
          choices={COPY_MODES.map((mode) => ({ id: mode, name: translate(`resources.workflows.modes.${mode}`) }))}
          isRequired
          helperText={false}
          sx={{ minWidth: 220 }}
        />
        <NumberInput
          source={task('batchSize')}
          label={label('batch_size')}
          helperText={label('batch_size_help')}
          min={1000}
          max={100000}
          step={1000}
          sx={{ minWidth: 200 }}
        />
      </Box>
    </>
  );
}

function SqlTaskInputs({ index }: { index: number }) {
  const translate = useTranslate();
  return (
    <>
      <RepositoryFilePicker index={index} />
      <SelectInput
        source={`tasks.${index}.target`}
        label={label('target')}
        choices={['destination', 'source'].map((target) => ({ id: target, name: translate(`resources.workflows.targets.${target}`) }))}
        isRequired
        helperText={label('target_help')}
      />
    </>
  );
}

function QualityTaskInputs({ index }: { index: number }) {
  const tables = useTableChoices();
  const choices = useMemo(
    () =>
      (tables.data ?? []).map((table) => ({
        id: table.id,
        name: table.connectionName ? `${table.name} (${table.connectionName})` : table.name,
      })),
    [tables.data],
  );
  return (
    <AutocompleteArrayInput
      source={`tasks.${index}.tableIds`}
      label={label('tables')}
      choices={choices}
      isPending={tables.isPending}
      isRequired
      helperText={tables.isError ? failureText(tables.error) : label('tables_help')}
    />
  );
}

function NotifyTaskInputs({ index }: { index: number }) {
  return (
    <>
      <TextInput source={`tasks.${index}.message`} label={label('message')} helperText={false} isRequired multiline minRows={2} />
      <ConnectionSelect source={`tasks.${index}.slackConnectionId`} label={label('slack')} types={['slack']} />
      <ChipsInput
        source={`tasks.${index}.emails`}
        label={label('emails')}
        helperText={label('emails_help')}
        max={50}
        separator={ADDRESS_SEPARATOR}
      />
    </>
  );
}

/** The inputs of a task's type. */
export function TaskTypeInputs({ index, type }: { index: number; type: TaskType }) {
  switch (type) {
    case 'copy':
      return <CopyTaskInputs index={index} />;
    case 'sql':
      return <SqlTaskInputs index={index} />;
    case 'quality':
      return <QualityTaskInputs index={index} />;
    case 'notify':
      return <NotifyTaskInputs index={index} />;
    default:
      return null;
  }
}
