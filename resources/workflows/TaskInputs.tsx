import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { Alert, Box, Button } from '@mui/material';
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  NumberInput,
  RadioButtonGroupInput,
  SelectInput,
  TextInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { COPY_MODES, type CopyMode, type TaskType } from '../../common/schemas/workflows';
import { failureText } from '../../src/framework/feedback';
import { ChipsInput } from '../../src/framework/form/ChipsInput';
import { holdsTables, useEndpoints } from '../connections/api';
import { endpointText } from '../tables/cells';
import { useFailureAlert } from '../tables/hooks';
import { useActivePairs, useTableChoices, useTableColumns } from './api';
import { ConnectionSelect } from './FormParts';
import { RepositoryFilePicker } from './RepositoryFilePicker';
import type { Workflow } from './types';

const MONOSPACE = { '& input, & textarea': { fontFamily: 'monospace' } };
const label = (key: string) => `resources.workflows.tasks.${key}`;
/** The modes whose copy makes the destination table when it is missing (server/jobs/tasks/copy.ts): all of them. */
const MAKES_MISSING_TABLE: ReadonlySet<string> = new Set<CopyMode>(['create', 'replace', 'append', 'merge']);
/** Addresses pasted at once: commas, semicolons, spaces. */
export const ADDRESS_SEPARATOR = /[\s,;]+/;

/** The connections of the workflow's pair: from the active pairs, else (an edited workflow whose pair is off) from the workflow. */
function usePairConnections(): { pairId: string | null; sourceId: string | null; destinationId: string | null; isPending: boolean } {
  const pairId = (useWatch({ name: 'pairId' }) as string | null) || null;
  const record = useRecordContext<Workflow>();
  const pairs = useActivePairs(pairId !== null);
  const pair = pairs.data?.find((candidate) => candidate.id === pairId);
  if (pair) return { pairId, sourceId: pair.sourceId, destinationId: pair.destinationId, isPending: false };
  if (pairId && record?.pairId === pairId)
    return { pairId, sourceId: record.sourceId ?? null, destinationId: record.destinationId ?? null, isPending: false };
  return { pairId, sourceId: null, destinationId: null, isPending: pairId !== null && pairs.isPending };
}

/**
 * A copy task's table, chosen among the tables the connection discovered (its endpoints), as
 * table registration does: no typed names. A saved table the connection no longer lists stays
 * chosen and says so; a connection that cannot list says why, with a retry; `extra` adds one
 * choice that is not a discovered table (the new table a copy makes when the destination lacks it).
 */
function EndpointTableInput({
  source,
  inputLabel,
  connectionId,
  pending,
  extra,
}: {
  source: string;
  inputLabel: string;
  connectionId: string | null;
  pending: boolean;
  extra?: { id: string; name: string } | null;
}) {
  const translate = useTranslate();
  const current = (useWatch({ name: source }) as string | null) || null;
  const endpoints = useEndpoints(connectionId);
  useFailureAlert(endpoints.error);
  const choices = useMemo(() => {
    const listed = (endpoints.data ?? [])
      .filter((endpoint) => holdsTables(endpoint.kind))
      .map((endpoint) => ({ id: endpoint.id, name: endpointText(endpoint) }));
    if (extra && !listed.some((choice) => choice.id === extra.id)) listed.push(extra);
    // The saved table stays shown; it is said to be gone only once the connection's list is read.
    if (current && !listed.some((choice) => choice.id === current))
      listed.unshift({ id: current, name: endpoints.data ? translate(label('not_listed'), { name: current }) : current });
    return listed;
  }, [endpoints.data, extra, current, translate]);
  const helper = !connectionId ? (pending ? false : label('choose_pair_first')) : endpoints.isError ? false : label('table_help');
  return (
    <Box sx={{ flex: 1, minWidth: 240, width: '100%' }}>
      {connectionId && endpoints.isError && (
        <Alert
          severity="error"
          sx={{ mb: 1 }}
          action={
            <Button color="inherit" size="small" onClick={() => void endpoints.refetch()} disabled={endpoints.isFetching}>
              {translate('resources.connections.endpoints.retry')}
            </Button>
          }
        >
          {translate(label('cannot_list'), { message: failureText(endpoints.error) })}
        </Alert>
      )}
      <AutocompleteInput
        // The input's text is taken from its choice once: a saved table's is drawn again when the connection's list arrives.
        key={endpoints.data || !current ? 'settled' : 'waiting'}
        source={source}
        label={inputLabel}
        choices={choices}
        translateChoice={false}
        isPending={Boolean(connectionId) && endpoints.isPending}
        disabled={!connectionId && !current}
        isRequired
        helperText={helper}
        sx={MONOSPACE}
      />
    </Box>
  );
}

function CopyTaskInputs({ index }: { index: number }) {
  const translate = useTranslate();
  const kind = useWatch({ name: `tasks.${index}.sourceKind` }) as string;
  const mode = (useWatch({ name: `tasks.${index}.to.mode` }) as string | null) || null;
  const sourceTable = (useWatch({ name: `tasks.${index}.from.table` }) as string | null) || null;
  const task = (field: string) => `tasks.${index}.${field}`;
  const pair = usePairConnections();
  // A copy makes its table when the destination lacks it: named after the source's, that table is a
  // choice beside the destination's own.
  const newTable = useMemo(
    () =>
      mode && MAKES_MISSING_TABLE.has(mode) && kind !== 'query' && sourceTable
        ? { id: sourceTable, name: translate(label('new_table'), { name: sourceTable }) }
        : null,
    [mode, kind, sourceTable, translate],
  );
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
        <EndpointTableInput
          source={task('from.table')}
          inputLabel={label('source_table')}
          connectionId={pair.sourceId}
          pending={pair.isPending}
        />
      )}
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
        <EndpointTableInput
          source={task('to.table')}
          inputLabel={label('destination_table')}
          connectionId={pair.destinationId}
          pending={pair.isPending}
          extra={newTable}
        />
        <SelectInput
          source={task('to.mode')}
          label={label('mode')}
          choices={COPY_MODES.map((mode) => ({ id: mode, name: translate(`resources.workflows.modes.${mode}`) }))}
          isRequired
          // No mode is assumed: a new copy task says nothing until one is chosen.
          emptyText={translate(label('choose_mode'))}
          helperText={mode ? label(`mode_help_${mode}`) : false}
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
      <CopyColumnInputs
        index={index}
        mode={mode}
        fromQuery={kind === 'query'}
        sourceConnectionId={pair.sourceId}
        sourceTable={sourceTable}
      />
    </>
  );
}

/**
 * A merge's key columns and an incremental copy's watermark column, picked among the columns of
 * the source table as its connection describes them; a query's columns are only known when it
 * runs, so its are typed.
 */
function CopyColumnInputs({
  index,
  mode,
  fromQuery,
  sourceConnectionId,
  sourceTable,
}: {
  index: number;
  mode: string | null;
  fromQuery: boolean;
  sourceConnectionId: string | null;
  sourceTable: string | null;
}) {
  const translate = useTranslate();
  const adds = mode === 'append' || mode === 'merge';
  // Read only where a key or a watermark can be picked: create and replace copies never need the columns.
  const columns = useTableColumns(fromQuery || !adds ? null : sourceConnectionId, fromQuery || !adds ? null : sourceTable);
  useFailureAlert(columns.error);
  const choices = useMemo(
    () => (columns.data ?? []).map((column) => ({ id: column.name, name: `${column.name} (${column.dataType})` })),
    [columns.data],
  );
  if (!adds) return null;
  const typed = fromQuery;
  const ready = Boolean(sourceConnectionId && sourceTable);
  const helper = (key: string) => (ready ? (columns.isError ? failureText(columns.error) : label(key)) : label('columns_after_table'));
  return (
    <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', width: '100%' }}>
      {mode === 'merge' &&
        (typed ? (
          <ChipsInput
            source={`tasks.${index}.to.keys`}
            label={label('keys')}
            helperText={label('keys_typed_help')}
            max={16}
            separator={/[\s,;]+/}
          />
        ) : (
          <AutocompleteArrayInput
            source={`tasks.${index}.to.keys`}
            label={label('keys')}
            choices={choices}
            translateChoice={false}
            isPending={ready && columns.isPending}
            disabled={!ready}
            isRequired
            helperText={helper('keys_help')}
            sx={{ flex: 1, minWidth: 240 }}
          />
        ))}
      {typed ? (
        <TextInput
          source={`tasks.${index}.watermark`}
          label={label('watermark')}
          helperText={label('watermark_typed_help')}
          sx={MONOSPACE}
        />
      ) : (
        <AutocompleteInput
          source={`tasks.${index}.watermark`}
          label={label('watermark')}
          choices={choices}
          translateChoice={false}
          isPending={ready && columns.isPending}
          disabled={!ready}
          emptyText={translate(label('no_watermark'))}
          helperText={helper('watermark_help')}
          sx={{ flex: 1, minWidth: 240 }}
        />
      )}
    </Box>
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
  useFailureAlert(tables.error);
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
      translateChoice={false}
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
