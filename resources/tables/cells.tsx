import { Box, Chip } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { stopRowClick } from '../../src/framework/feedback';
import type { Endpoint } from '../connections/types';
import type { DataTable, RuleResult, RunStatus } from './types';

const COLOURS: Record<RunStatus, 'success' | 'warning' | 'error'> = {
  passed: 'success',
  warned: 'warning',
  failed: 'error',
  error: 'error',
};

/** A run's or a result's status. */
export function RunStatusChip({ status }: { status: RunStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={COLOURS[status] ?? 'default'}
      variant={status === 'error' ? 'outlined' : 'filled'}
      label={translate(`resources.tables.run_status.${status}`, { _: status })}
      data-status={status}
    />
  );
}

/** Where a table's results are: its data-quality tab. */
export function qualityPath(createPath: ReturnType<typeof useCreatePath>, tableId: string): string {
  return `${createPath({ resource: 'tables', type: 'show', id: tableId })}/quality`;
}

/** The list's last run: its status, leading to the results; "never run" without one. */
export function LastRunCell({ table }: { table: DataTable }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  if (!table.lastRun) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {translate('resources.tables.never_run')}
      </Box>
    );
  }
  return (
    <Link
      to={qualityPath(createPath, table.id)}
      onClick={stopRowClick}
      aria-label={translate('resources.tables.last_run_of', { name: table.name })}
    >
      <RunStatusChip status={table.lastRun.status} />
    </Link>
  );
}

/** Columns described out of all: "12 / 20". */
export function describedText(table: Pick<DataTable, 'describedCount' | 'columnCount'>): string {
  return `${table.describedCount ?? 0} / ${table.columnCount ?? 0}`;
}

export function formatShare(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  return `${(share * 100).toLocaleString('en', { maximumFractionDigits: 2 })}%`;
}

export function formatObserved(value: unknown): string {
  if (value === undefined || value === null) return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function formatWhen(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** Rows failed out of scanned, and their share: "3 / 1,000 (0.3%)". */
export function failedRowsText(result: Pick<RuleResult, 'rowsFailed' | 'rowsScanned' | 'failedShare'>): string {
  if (result.rowsFailed === null || result.rowsFailed === undefined) return '—';
  const scanned = result.rowsScanned === null || result.rowsScanned === undefined ? '—' : result.rowsScanned.toLocaleString('en');
  return `${result.rowsFailed.toLocaleString('en')} / ${scanned} (${formatShare(result.failedShare)})`;
}

/** How a connection's endpoint reads in a picker: `sales / orders`, or its name alone. */
export function endpointText(endpoint: Pick<Endpoint, 'name' | 'group'>): string {
  return endpoint.group ? `${endpoint.group} / ${endpoint.name}` : endpoint.name;
}

/**
 * Which rows a result covered, beside it: the new rows of an incremental check ("Rows since id
 * 9900000"), every row of a table with a watermark column ("All rows"), and a sample's estimate
 * ("Estimate: 10% sample of 4,812 rows"). Nothing for an exact check of a table without one.
 */
export function CoverageChips({
  result,
}: {
  result: Pick<RuleResult, 'coveredColumn' | 'coveredAfter' | 'samplePercent' | 'rowsScanned'>;
}) {
  const translate = useTranslate();
  const chips: Array<{ key: string; label: string; title: string; color?: 'info' }> = [];
  if (result.coveredColumn && result.coveredAfter != null)
    chips.push({
      key: 'since',
      label: translate('resources.tables.quality.since', { column: result.coveredColumn, value: result.coveredAfter }),
      title: translate('resources.tables.quality.since_help', { column: result.coveredColumn, value: result.coveredAfter }),
    });
  else if (result.coveredColumn)
    chips.push({
      key: 'all',
      label: translate('resources.tables.quality.all_rows'),
      title: translate('resources.tables.quality.all_rows_help'),
    });
  if (result.samplePercent != null)
    chips.push({
      key: 'estimate',
      color: 'info',
      label: translate('resources.tables.quality.estimate', {
        percent: result.samplePercent,
        rows: (result.rowsScanned ?? 0).toLocaleString('en'),
      }),
      title: translate('resources.tables.quality.estimate_help'),
    });
  if (chips.length === 0) return null;
  return (
    <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap', mt: 0.25 }}>
      {chips.map((chip) => (
        <Chip
          key={chip.key}
          size="small"
          variant="outlined"
          color={chip.color ?? 'default'}
          label={chip.label}
          title={chip.title}
          data-coverage={chip.key}
        />
      ))}
    </Box>
  );
}
