import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Box, Button, Chip, Tooltip, Typography } from '@mui/material';
import { useState } from 'react';
import { useCanAccess, useTranslate, WithRecord } from 'react-admin';
import { FUNCTION_TYPE_OF, QUALITY_FUNCTIONS, type QualityFunctionType } from '../../common/schemas/quality';
import { RelatedTable, type RelatedColumn, type RelatedRowAction } from '../../src/framework/related/RelatedTable';
import { SearchField, SelectFilter } from '../../src/framework/related/SearchField';
import { CoverageChips, failedRowsText, formatObserved, formatWhen, RunStatusChip } from './cells';
import { useRuleActions, useRules, useRunChecks } from './hooks';
import { RuleDialog } from './RuleDialog';
import { RunHistory } from './RunHistory';
import { RunResults } from './RunResults';
import { WatermarkSetting } from './WatermarkSetting';
import type { DataTable, QualityRule } from './types';
import { Spinner } from '../../src/framework/Spinner';

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
      <CoverageChips result={result} />
    </Box>
  );
}

/** The rules' columns: the name (marked when inactive), the check, its column, severity and last result. */
function useRuleColumns(): readonly RelatedColumn<QualityRule>[] {
  const translate = useTranslate();
  return [
    {
      label: 'resources.tables.quality.name',
      render: (rule) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {rule.name}
          </Typography>
          {!rule.isActive && <Chip size="small" variant="outlined" label={translate('resources.tables.quality.inactive')} />}
        </>
      ),
    },
    {
      label: 'resources.tables.quality.kind',
      render: (rule) => translate(`resources.tables.functions.${rule.functionName}`, { _: rule.functionName }),
    },
    { label: 'resources.tables.quality.column', sx: { fontFamily: 'monospace' }, render: (rule) => rule.columnName ?? '—' },
    {
      label: 'resources.tables.quality.severity',
      render: (rule) => translate(`resources.tables.severities.${rule.severity}`, { _: rule.severity }),
    },
    { label: 'resources.tables.quality.last_result', render: (rule) => <LastResult rule={rule} /> },
  ];
}

function RuleFilters({ rules }: { rules: ReturnType<typeof useRules> }) {
  const translate = useTranslate();
  const names = QUALITY_FUNCTIONS.filter((fn) => !rules.functionType || FUNCTION_TYPE_OF[fn] === rules.functionType);
  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }}>
      <SearchField label={translate('resources.tables.quality.search')} value={rules.search} onChange={rules.setSearch} />
      <SelectFilter
        label={translate('resources.tables.quality.function_type')}
        any={translate('resources.tables.quality.any')}
        value={rules.functionType}
        choices={FUNCTION_TYPES.map((type) => ({ id: type, name: translate(`resources.tables.function_types.${type}`) }))}
        onChange={(type) => {
          rules.setFunctionType(type);
          rules.setFunctionName('');
        }}
        minWidth={150}
      />
      <SelectFilter
        label={translate('resources.tables.quality.kind')}
        any={translate('resources.tables.quality.any')}
        value={rules.functionName}
        choices={names.map((fn) => ({ id: fn, name: translate(`resources.tables.functions.${fn}`) }))}
        onChange={rules.setFunctionName}
        minWidth={180}
      />
    </Box>
  );
}

/**
 * The table's data-quality rules, each with its last result; add, edit and delete them; run the
 * checks now and read what the run measured.
 */
export function QualityTab(_: { label?: false }) {
  return <WithRecord<DataTable> render={(table) => <QualityBody table={table} />} />;
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
  const columns = useRuleColumns();
  const title = translate('resources.tables.quality.title');
  const ruleActions: readonly RelatedRowAction<QualityRule>[] = [
    {
      label: (rule) => translate('resources.tables.quality.edit_of', { name: rule.name }),
      icon: <EditIcon fontSize="small" />,
      allowed: mayUpdate === true,
      run: (rule) => setEditing(rule),
    },
    {
      label: (rule) => translate('resources.tables.quality.delete_of', { name: rule.name }),
      icon: <DeleteIcon fontSize="small" />,
      color: 'error',
      allowed: mayDelete === true,
      run: (rule) => actions.remove(rule),
      confirm: {
        title: (rule) => translate('resources.tables.quality.delete_title', { name: rule.name }),
        content: 'resources.tables.quality.delete_content',
      },
    },
  ];

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
        <RuleFilters rules={rules} />
        {mayUpdate && (
          <Box sx={{ display: 'flex', gap: 1 }}>
            <Button startIcon={<AddIcon />} onClick={() => setEditing('new')}>
              {translate('resources.tables.quality.add')}
            </Button>
            {table.watermarkColumn && (
              <Tooltip title={translate('resources.tables.quality.full_check_help', { column: table.watermarkColumn })}>
                <span>
                  <Button onClick={() => void checks.start(true)} disabled={checks.running}>
                    {translate('resources.tables.quality.full_check')}
                  </Button>
                </span>
              </Tooltip>
            )}
            <Button
              variant="contained"
              startIcon={checks.running ? <Spinner size={16} color="inherit" /> : <PlayArrowIcon />}
              onClick={() => void checks.start()}
              disabled={checks.running}
              aria-busy={checks.running}
            >
              {translate(checks.running ? 'resources.tables.quality.running' : 'resources.tables.quality.run')}
            </Button>
          </Box>
        )}
      </Box>
      <WatermarkSetting table={table} editable={mayUpdate === true} />
      {checks.run && <RunResults run={checks.run} onClose={checks.close} />}
      <RelatedTable
        list={rules.list}
        label={title}
        columns={columns}
        actions={ruleActions}
        rowProps={(rule) => ({ 'data-rule': rule.id, sx: rule.isActive ? undefined : { opacity: 0.6 } })}
        empty="resources.tables.quality.empty"
      />
      <RunHistory tableId={tableId} onOpen={checks.show} />
      {editing && (
        <RuleDialog tableId={tableId} rule={editing === 'new' ? null : editing} onSave={actions.save} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}
