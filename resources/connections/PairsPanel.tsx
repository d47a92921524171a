import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { connectionTypeOf } from '../../common/connections';
import { failureText } from '../../src/framework/feedback';
import { RelatedTable, type RelatedColumn, type RelatedRowAction } from '../../src/framework/related/RelatedTable';
import { useRelatedList, WHOLE_LIST } from '../../src/framework/related/useRelatedList';
import { useConnectionChoices } from './api';
import { ConnectionLink } from './cells';
import { usePairActions } from './hooks';
import { pairCandidates, pairName, pairNameProblem, rolesOf, type PairRole } from './pairs';
import { pairsList } from './related';
import type { Connection, Pair } from './types';

type Actions = ReturnType<typeof usePairActions>;

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
  const roles = rolesOf(connection);
  const [role, setRole] = useState<PairRole>(roles[0]);
  const [otherId, setOtherId] = useState('');
  const [name, setName] = useState('');
  const [named, setNamed] = useState(false);
  const [problems, setProblems] = useState<{ other?: string; name?: string }>({});
  const all = useConnectionChoices();
  const candidates = pairCandidates(connection, role, all.data ?? [], pairs);
  const other = candidates.find((candidate) => candidate.id === otherId);
  const suggested = other ? (role === 'source' ? pairName(connection.name, other.name) : pairName(other.name, connection.name)) : '';
  const shownName = named ? name : suggested;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wanted = { other: other ? undefined : translate('resources.connections.pairs.choose_other'), name: pairNameProblem(shownName) };
    setProblems(wanted);
    if (!other || wanted.name) return;
    const body =
      role === 'source' ? { sourceId: connection.id, destinationId: other.id } : { sourceId: other.id, destinationId: connection.id };
    if (await actions.add({ name: shownName.trim(), ...body })) onClose();
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby="pair-add-title" maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id="pair-add-title">{translate('resources.connections.pairs.add_title')}</DialogTitle>
        <DialogContent sx={{ display: 'grid', gap: 2, pt: '8px !important' }}>
          {roles.length > 1 && (
            <RadioGroup
              row
              aria-label={translate('resources.connections.pairs.role')}
              value={role}
              onChange={(event) => {
                setRole(event.target.value as PairRole);
                setOtherId('');
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
            value={otherId}
            onChange={(event) => setOtherId(event.target.value)}
            error={Boolean(problems.other)}
            helperText={
              problems.other ??
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
          <TextField
            required
            label={translate('resources.connections.pairs.name')}
            value={shownName}
            onChange={(event) => {
              setNamed(true);
              setName(event.target.value);
            }}
            error={Boolean(problems.name)}
            helperText={problems.name}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={actions.busy !== null}>
            {translate('resources.connections.pairs.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

function RenamePairDialog({ pair, actions, onClose }: { pair: Pair; actions: Actions; onClose: () => void }) {
  const translate = useTranslate();
  const [name, setName] = useState(pair.name);
  const [problem, setProblem] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const wrong = pairNameProblem(name);
    setProblem(wrong);
    if (wrong) return;
    if (await actions.rename(pair, name.trim())) onClose();
  };
  return (
    <Dialog open onClose={onClose} aria-labelledby="pair-rename-title" maxWidth="sm" fullWidth>
      <form onSubmit={submit} noValidate>
        <DialogTitle id="pair-rename-title">{translate('resources.connections.pairs.rename_title', { name: pair.name })}</DialogTitle>
        <DialogContent sx={{ pt: '8px !important' }}>
          <TextField
            required
            fullWidth
            label={translate('resources.connections.pairs.name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={Boolean(problem)}
            helperText={problem}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('ra.action.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={actions.busy !== null}>
            {translate('ra.action.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
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
