import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  IconButton,
  InputAdornment,
  MenuItem,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { Confirm, useCanAccess, useRecordContext, useTranslate } from 'react-admin';
import { FUNCTION_TYPE_OF, QUALITY_FUNCTIONS, type QualityFunctionType } from '../../common/schemas/quality';
import { failureText } from '../../src/framework/feedback';
import { failedRowsText, formatObserved, formatWhen, RunStatusChip } from './cells';
import { useRuleActions, useRules, useRunChecks } from './hooks';
import { Pager } from './Pager';
import { RuleDialog } from './RuleDialog';
import { RunResults } from './RunResults';
import type { DataTable, QualityRule } from './types';

const FUNCTION_TYPES: readonly QualityFunctionType[] = ['column', 'table', 'custom'];

function LastResult({ rule }: { rule: QualityRule }) {
  const translate = useTranslate();
  const result = rule.lastResult;
  if (!result) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.tables.quality.never_checked')}
      </Typography>
    );
  }
  return (
    <Box sx={{ display: 'grid', gap: 0.25 }} data-last-result={result.status}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <RunStatusChip status={result.status} />
        <Typography variant="caption" color="text.secondary">
          {formatWhen(result.endedAt ?? result.startedAt)}
        </Typography>
      </Box>
      <Typography variant="caption">
        {translate('resources.tables.quality.observed_value', { value: formatObserved(result.observed) })} · {failedRowsText(result)}
      </Typography>
    </Box>
  );
}

function RuleRow({
  rule,
  editable,
  mayDelete,
  onEdit,
  onDelete,
}: {
  rule: QualityRule;
  editable: boolean;
  mayDelete: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const translate = useTranslate();
  return (
    <TableRow data-rule={rule.id} sx={rule.isActive ? undefined : { opacity: 0.6 }}>
      <TableCell>
        <Typography variant="body2" sx={{ fontWeight: 600 }}>
          {rule.name}
        </Typography>
        {!rule.isActive && <Chip size="small" variant="outlined" label={translate('resources.tables.quality.inactive')} />}
      </TableCell>
      <TableCell>{translate(`resources.tables.functions.${rule.functionName}`, { _: rule.functionName })}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace' }}>{rule.columnName ?? '—'}</TableCell>
      <TableCell>{translate(`resources.tables.severities.${rule.severity}`, { _: rule.severity })}</TableCell>
      <TableCell>
        <LastResult rule={rule} />
      </TableCell>
      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
        {editable && (
          <Tooltip title={translate('resources.tables.quality.edit_of', { name: rule.name })}>
            <IconButton size="small" aria-label={translate('resources.tables.quality.edit_of', { name: rule.name })} onClick={onEdit}>
              <EditIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
        {mayDelete && (
          <Tooltip title={translate('resources.tables.quality.delete_of', { name: rule.name })}>
            <IconButton
              size="small"
              color="error"
              aria-label={translate('resources.tables.quality.delete_of', { name: rule.name })}
              onClick={onDelete}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        )}
      </TableCell>
    </TableRow>
  );
}

function RuleFilters({ rules }: { rules: ReturnType<typeof useRules> }) {
  const translate = useTranslate();
  const names = QUALITY_FUNCTIONS.filter((fn) => !rules.functionType || FUNCTION_TYPE_OF[fn] === rules.functionType);
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <TextField
        size="small"
        value={rules.search}
        onChange={(event) => rules.setSearch(event.target.value)}
        placeholder={translate('resources.tables.quality.search')}
        slotProps={{
          htmlInput: { 'aria-label': translate('resources.tables.quality.search') },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <TextField
        select
        size="small"
        label={translate('resources.tables.quality.function_type')}
        value={rules.functionType}
        onChange={(event) => {
          rules.setFunctionType(event.target.value);
          rules.setFunctionName('');
        }}
        sx={{ minWidth: 150 }}
      >
        <MenuItem value="">{translate('resources.tables.quality.any')}</MenuItem>
        {FUNCTION_TYPES.map((type) => (
          <MenuItem key={type} value={type}>
            {translate(`resources.tables.function_types.${type}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={translate('resources.tables.quality.kind')}
        value={rules.functionName}
        onChange={(event) => rules.setFunctionName(event.target.value)}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="">{translate('resources.tables.quality.any')}</MenuItem>
        {names.map((fn) => (
          <MenuItem key={fn} value={fn}>
            {translate(`resources.tables.functions.${fn}`)}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}

/**
 * The table's data-quality rules, each with its last result; add, edit and delete them; run the
 * checks now and read what the run measured.
 */
export function QualityTab(_: { label?: false }) {
  const table = useRecordContext<DataTable>();
  if (!table) return null;
  return <QualityBody table={table} />;
}

function QualityBody({ table }: { table: DataTable }) {
  const translate = useTranslate();
  const tableId = String(table.id);
  const rules = useRules(tableId);
  const actions = useRuleActions(tableId);
  const checks = useRunChecks(tableId);
  const { canAccess: mayUpdate } = useCanAccess({ resource: 'tables', action: 'edit', record: table });
  const { canAccess: mayDelete } = useCanAccess({ resource: 'tables', action: 'delete', record: table });
  const [editing, setEditing] = useState<QualityRule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QualityRule | null>(null);
  const { query } = rules;
  const title = translate('resources.tables.quality.title');

  let body;
  if (query.isPending) body = <Skeleton variant="rectangular" height={120} />;
  else if (query.isError) body = <Alert severity="error">{failureText(query.error)}</Alert>;
  else if (query.data.rows.length === 0) body = <Typography variant="body2">{translate('resources.tables.quality.empty')}</Typography>;
  else
    body = (
      <Table size="small" aria-label={title} aria-busy={query.isFetching}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.tables.quality.name')}</TableCell>
            <TableCell>{translate('resources.tables.quality.kind')}</TableCell>
            <TableCell>{translate('resources.tables.quality.column')}</TableCell>
            <TableCell>{translate('resources.tables.quality.severity')}</TableCell>
            <TableCell>{translate('resources.tables.quality.last_result')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {query.data.rows.map((rule) => (
            <RuleRow
              key={rule.id}
              rule={rule}
              editable={mayUpdate === true}
              mayDelete={mayDelete === true}
              onEdit={() => setEditing(rule)}
              onDelete={() => setDeleting(rule)}
            />
          ))}
        </TableBody>
      </Table>
    );

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <RuleFilters rules={rules} />
        {mayUpdate && (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              {translate('resources.tables.quality.add')}
            </Button>
            <Button
              variant="contained"
              startIcon={checks.running ? <CircularProgress size={16} color="inherit" /> : <PlayArrowIcon />}
              onClick={() => void checks.start()}
              disabled={checks.running}
              aria-busy={checks.running}
            >
              {translate(checks.running ? 'resources.tables.quality.running' : 'resources.tables.quality.run')}
            </Button>
          </Box>
        )}
      </Box>
      {checks.run && <RunResults run={checks.run} onClose={checks.close} />}
      {body}
      <Pager data={query.data} page={rules.paging.page} setPage={rules.paging.setPage} />
      {editing && (
        <RuleDialog tableId={tableId} rule={editing === 'new' ? null : editing} onSave={actions.save} onClose={() => setEditing(null)} />
      )}
      <Confirm
        isOpen={deleting !== null}
        title={translate('resources.tables.quality.delete_title', { name: deleting?.name ?? '' })}
        content={translate('resources.tables.quality.delete_content')}
        confirm={translate('ra.action.delete')}
        onConfirm={async () => {
          const rule = deleting!;
          setDeleting(null);
          await actions.remove(rule);
        }}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}
