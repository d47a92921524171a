import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Card,
  CardContent,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { useController, useFormContext } from 'react-hook-form';
import { z } from 'zod';
import { connectionTypeOf } from '../../common/connections';
import { failureText } from '../../src/framework/feedback';
import { FormDialog } from '../../src/framework/form/FormDialog';
import { RelatedTable, type RelatedColumn, type RelatedRowAction } from '../../src/framework/related/RelatedTable';
import { useRelatedList, WHOLE_LIST } from '../../src/framework/related/useRelatedList';
import { useConnectionChoices } from './api';
import { ConnectionLink } from './cells';
import { usePairActions } from './hooks';
import { pairCandidates, pairName, pairNameRule, rolesOf, type PairRole } from './pairs';
import { pairsList } from './related';
import type { Connection, Pair } from './types';

type Actions = ReturnType<typeof usePairActions>;

interface PairValues {
  role: PairRole;
  otherId: string;
  name: string;
}

/** A pair's name, checked by the server's rule; typing in it is told (it then stops following a suggestion). */
function PairNameInput({ onTyped }: { onTyped?: () => void }) {
  const translate = useTranslate();
  const { field, fieldState } = useController<PairValues, 'name'>({ name: 'name' });
  return (
    <TextField
      required
      fullWidth
      label={translate('resources.connections.pairs.name')}
      name={field.name}
      inputRef={field.ref}
      value={field.value}
      onBlur={field.onBlur}
      onChange={(event) => {
        onTyped?.();
        field.onChange(event.target.value);
      }}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message}
    />
  );
}

/** The new pair's part, the other connection, and its name, which follows the chosen pair until someone types another. */
function AddPairInputs({ connection, pairs }: { connection: Connection; pairs: readonly Pair[] }) {
  const translate = useTranslate();
  const roles = rolesOf(connection);
  const { watch, setValue } = useFormContext<PairValues>();
  const { field: other, fieldState: otherState } = useController<PairValues, 'otherId'>({ name: 'otherId' });
  const [named, setNamed] = useState(false);
  const role = watch('role');
  const all = useConnectionChoices();
  const candidates = pairCandidates(connection, role, all.data ?? [], pairs);
  const suggest = (chosen: Connection | undefined) => {
    if (named) return;
    const suggested = chosen ? (role === 'source' ? pairName(connection.name, chosen.name) : pairName(chosen.name, connection.name)) : '';
    setValue('name', suggested);
  };

  return (
    <>
      {roles.length > 1 && (
        <RadioGroup
          row
          aria-label={translate('resources.connections.pairs.role')}
          value={role}
          onChange={(event) => {
            setValue('role', event.target.value as PairRole);
            setValue('otherId', '');
            suggest(undefined);
          }}
        >
          <FormControlLabel value="source" control={<Radio />} label={translate('resources.connections.pairs.as_source')} />
          <FormControlLabel value="destination" control={<Radio />} label={translate('resources.connections.pairs.as_destination')} />
        </RadioGroup>
      )}
      <TextField
        select
        required
        label={translate(role === 'source' ? 'resources.connections.pairs.destination' : 'resources.connections.pairs.source')}
        name={other.name}
        inputRef={other.ref}
        value={other.value}
        onBlur={other.onBlur}
        onChange={(event) => {
          other.onChange(event.target.value);
          suggest(candidates.find((candidate) => candidate.id === event.target.value));
        }}
        error={Boolean(otherState.error)}
        helperText={
          otherState.error?.message ??
          (all.isError
            ? failureText(all.error)
            : candidates.length === 0 && !all.isPending
              ? translate('resources.connections.pairs.no_candidates')
              : undefined)
        }
      >
        {candidates.map((candidate) => (
          <MenuItem key={candidate.id} value={candidate.id}>
            {candidate.name} ({candidate.typeLabel})
          </MenuItem>
        ))}
      </TextField>
      <PairNameInput onTyped={() => setNamed(true)} />
    </>
  );
}

function AddPairDialog({
  connection,
  pairs,
  actions,
  onClose,
}: {
  connection: Connection;
  pairs: readonly Pair[];
  actions: Actions;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const defaults = useMemo<PairValues>(() => ({ role: rolesOf(connection)[0], otherId: '', name: '' }), [connection]);
  const schema = useMemo(
    () =>
      z.object({
        role: z.enum(['source', 'destination']),
        otherId: z.string().min(1, translate('resources.connections.pairs.choose_other')),
        name: pairNameRule,
      }),
    [translate],
  );
  const submit = async ({ role, otherId, name }: PairValues) => {
    const body =
      role === 'source' ? { sourceId: connection.id, destinationId: otherId } : { sourceId: otherId, destinationId: connection.id };
    return (await actions.add({ name, ...body })) ? null : false;
  };

  return (
    <FormDialog
      title={translate('resources.connections.pairs.add_title')}
      defaultValues={defaults}
      schema={schema}
      onSubmit={submit}
      onClose={onClose}
      saveLabel="resources.connections.pairs.add"
      busy={actions.busy !== null}
      contentSx={{ display: 'grid', gap: 2, pt: '8px !important' }}
    >
      <AddPairInputs connection={connection} pairs={pairs} />
    </FormDialog>
  );
}

const renameSchema = z.object({ name: pairNameRule });

function RenamePairDialog({ pair, actions, onClose }: { pair: Pair; actions: Actions; onClose: () => void }) {
  const translate = useTranslate();
  const defaults = useMemo(() => ({ name: pair.name }), [pair]);
  const submit = async ({ name }: { name: string }) => ((await actions.rename(pair, name)) ? null : false);
  return (
    <FormDialog
      title={translate('resources.connections.pairs.rename_title', { name: pair.name })}
      defaultValues={defaults}
      schema={renameSchema}
      onSubmit={submit}
      onClose={onClose}
      busy={actions.busy !== null}
      contentSx={{ pt: '8px !important' }}
    >
      <PairNameInput />
    </FormDialog>
  );
}

function PairsBody({ connection }: { connection: Connection }) {
  const translate = useTranslate();
  const list = useRelatedList<Pair>(pairsList, connection.id, { perPage: WHOLE_LIST });
  const actions = usePairActions();
  const { canAccess: mayUpdate } = useCanAccess({ resource: 'connections', action: 'edit' });
  const { canAccess: mayDelete } = useCanAccess({ resource: 'connections', action: 'delete' });
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState<Pair | null>(null);
  const canPair = rolesOf(connection).length > 0;
  const title = translate('resources.connections.pairs.title');
  const busy = (pair: Pair) => actions.busy === pair.id;

  const columns: readonly RelatedColumn<Pair>[] = [
    { label: 'resources.connections.pairs.name', render: (pair) => pair.name },
    { label: 'resources.connections.pairs.source', render: (pair) => <ConnectionLink id={pair.sourceId} name={pair.sourceName} /> },
    {
      label: 'resources.connections.pairs.destination',
      render: (pair) => <ConnectionLink id={pair.destinationId} name={pair.destinationName} />,
    },
    {
      label: 'resources.connections.pairs.active',
      render: (pair) => (
        <Switch
          size="small"
          checked={pair.isActive}
          disabled={mayUpdate !== true || busy(pair)}
          onChange={(event) => void actions.setActive(pair, event.target.checked)}
          slotProps={{ input: { 'aria-label': translate('resources.connections.pairs.active_of', { name: pair.name }) } }}
        />
      ),
    },
  ];
  const pairActions: readonly RelatedRowAction<Pair>[] = [
    {
      label: (pair) => translate('resources.connections.pairs.rename_of', { name: pair.name }),
      icon: <EditIcon fontSize="small" />,
      allowed: mayUpdate === true,
      disabled: busy,
      run: (pair) => setRenaming(pair),
    },
    {
      label: (pair) => translate('resources.connections.pairs.delete_of', { name: pair.name }),
      icon: <DeleteIcon fontSize="small" />,
      color: 'error',
      allowed: mayDelete === true,
      disabled: busy,
      run: (pair) => actions.remove(pair),
      confirm: {
        title: (pair) => translate('resources.connections.pairs.delete_title', { name: pair.name }),
        content: 'resources.connections.pairs.delete_content',
      },
    },
  ];

  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ width: '100%', mt: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 1 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {mayUpdate && canPair && (
            <Button startIcon={<AddIcon />} onClick={() => setAdding(true)}>
              {translate('resources.connections.pairs.add')}
            </Button>
          )}
        </Box>
        {!canPair && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {translate('resources.connections.pairs.no_role')}
          </Typography>
        )}
        <RelatedTable
          list={list}
          label={title}
          columns={columns}
          actions={pairActions}
          rowProps={(pair) => ({ 'data-pair': pair.id, sx: busy(pair) ? { opacity: 0.5 } : undefined })}
          empty="resources.connections.pairs.empty"
          loadingHeight={80}
          paged={false}
        />
        {adding && <AddPairDialog connection={connection} pairs={list.rows ?? []} actions={actions} onClose={() => setAdding(false)} />}
        {renaming && <RenamePairDialog pair={renaming} actions={actions} onClose={() => setRenaming(null)} />}
      </CardContent>
    </Card>
  );
}

/**
 * The pairs a connection is part of (`GET /connection/{id}/source/destination`): add one to
 * another connection it may be paired with, rename, (de)activate, delete after a confirmation.
 * Chat and code connections take no part in pairs and have no panel.
 */
export function PairsPanel(_: { label?: false }) {
  const record = useRecordContext<Connection>();
  if (!record || (connectionTypeOf(record.type)?.roles.length ?? 0) === 0) return null;
  return <PairsBody connection={record} />;
}
