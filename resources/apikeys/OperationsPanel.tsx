import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  FormGroup,
  InputAdornment,
  Skeleton,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { failureText } from '../../src/framework/feedback';
import { assignOperations, groupByTag, searchOperations, useOperationCatalogue } from './api';
import { MethodChip } from './MethodChip';
import type { ApiKey, ApiOperation } from './types';

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((id) => b.has(id));
}

function OperationLabel({ operation }: { operation: ApiOperation }) {
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <MethodChip method={operation.method} />
      <Box component="code" sx={{ fontFamily: 'monospace', fontSize: '0.85rem' }}>
        {operation.path}
      </Box>
      <Typography component="span" variant="body2" color="text.secondary">
        {operation.summary}
      </Typography>
    </Box>
  );
}

interface EditorProps {
  record: ApiKey;
  catalogue: readonly ApiOperation[];
  readOnly: boolean;
}

/**
 * The catalogue by tag, a box per operation, and a save that replaces the key's grants with
 * exactly the boxes ticked (in the catalogue's order). A grant the server no longer offers is
 * listed, and dropped by the next save (the server would refuse it).
 */
function OperationsEditor({ record, catalogue, readOnly }: EditorProps) {
  const translate = useTranslate();
  const queryClient = useQueryClient();
  const known = useMemo(() => new Set(catalogue.map((operation) => operation.id)), [catalogue]);
  const granted = useMemo(() => new Set((record.operations ?? []).filter((id) => known.has(id))), [record.operations, known]);
  const unknown = (record.operations ?? []).filter((id) => !known.has(id));
  const [selected, setSelected] = useState<ReadonlySet<string>>(granted);
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);

  // The record comes back after a save (or a reload): the boxes follow it.
  useEffect(() => setSelected(granted), [granted]);

  const groups = useMemo(() => groupByTag(searchOperations(catalogue, search)), [catalogue, search]);
  const dirty = !sameSet(selected, granted);
  const disabled = readOnly || saving;

  const toggle = (ids: readonly string[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      ids.forEach((id) => (on ? next.add(id) : next.delete(id)));
      return next;
    });

  const save = async () => {
    const operations = catalogue.filter((operation) => selected.has(operation.id)).map((operation) => operation.id);
    setSaving(true);
    alerts.loading();
    try {
      const result = await assignOperations(record.id, operations);
      alerts.success(result.message ?? translate('app.form.saved'));
      await queryClient.invalidateQueries({ queryKey: ['apikeys'] });
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography variant="body2" aria-live="polite">
          {translate('resources.apikeys.operations.granted', { count: selected.size, total: catalogue.length })}
        </Typography>
        <TextField
          size="small"
          type="search"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          placeholder={translate('resources.apikeys.operations.search')}
          slotProps={{
            htmlInput: { 'aria-label': translate('resources.apikeys.operations.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
      </Box>
      {readOnly && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate(record.isDeleted ? 'resources.apikeys.deleted_key' : 'resources.apikeys.operations.read_only')}
        </Alert>
      )}
      {unknown.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {translate('resources.apikeys.operations.unknown', { ids: unknown.join(', ') })}
        </Alert>
      )}
      {groups.length === 0 && <Typography variant="body2">{translate('resources.apikeys.operations.none')}</Typography>}
      <Box sx={{ display: 'grid', gap: 2 }}>
        {groups.map((group) => {
          const ids = group.operations.map((operation) => operation.id);
          const count = ids.filter((id) => selected.has(id)).length;
          return (
            <Box key={group.tag} component="fieldset" sx={{ border: 0, p: 0, m: 0 }} data-tag={group.tag}>
              <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
                <FormControlLabel
                  label={group.tag}
                  disabled={disabled}
                  control={
                    <Checkbox
                      size="small"
                      checked={count === ids.length && ids.length > 0}
                      indeterminate={count > 0 && count < ids.length}
                      onChange={(event) => toggle(ids, event.target.checked)}
                      slotProps={{ input: { 'aria-label': translate('resources.apikeys.operations.all_of', { tag: group.tag }) } }}
                    />
                  }
                />
              </Typography>
              <FormGroup sx={{ pl: 3 }}>
                {group.operations.map((operation) => (
                  <FormControlLabel
                    key={operation.id}
                    disabled={disabled}
                    label={<OperationLabel operation={operation} />}
                    control={
                      <Checkbox
                        size="small"
                        checked={selected.has(operation.id)}
                        onChange={(event) => toggle([operation.id], event.target.checked)}
                        slotProps={{
                          input: { 'aria-label': `${operation.method} ${operation.path}`, 'data-operation': operation.id } as object,
                        }}
                      />
                    }
                  />
                ))}
              </FormGroup>
            </Box>
          );
        })}
      </Box>
      {!readOnly && (
        <Box sx={{ display: 'flex', gap: 1, mt: 2 }}>
          <Button variant="contained" onClick={save} disabled={!dirty || saving}>
            {translate('resources.apikeys.operations.save')}
          </Button>
          <Button onClick={() => setSelected(granted)} disabled={!dirty || saving}>
            {translate('resources.apikeys.operations.reset')}
          </Button>
        </Box>
      )}
    </>
  );
}

/** What the key may call (`GET /openapi`, `POST /openapi/assign/{id}`), on the key's page. */
export function OperationsPanel(_: { label?: false }) {
  const record = useRecordContext<ApiKey>();
  const translate = useTranslate();
  const catalogue = useOperationCatalogue(Boolean(record));
  const { canAccess: mayUpdate } = useCanAccess({ resource: 'apikeys', action: 'edit', record });
  if (!record) return null;
  let body;
  if (catalogue.isPending) {
    body = (
      <Skeleton variant="rectangular" height={160} role="progressbar" aria-label={translate('resources.apikeys.operations.loading')} />
    );
  } else if (catalogue.isError) {
    body = (
      <Alert severity="error">{translate('resources.apikeys.operations.load_error', { message: failureText(catalogue.error) })}</Alert>
    );
  } else {
    body = <OperationsEditor record={record} catalogue={catalogue.data} readOnly={record.isDeleted || mayUpdate !== true} />;
  }
  return (
    <Box component="section" aria-label={translate('resources.apikeys.operations.title')}>
      <Divider sx={{ mb: 2 }} />
      <Typography variant="h6" component="h2">
        {translate('resources.apikeys.operations.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('resources.apikeys.operations.intro')}
      </Typography>
      {body}
    </Box>
  );
}
