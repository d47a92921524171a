import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, Table, TableBody, TableCell, TableHead, TablePagination, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { downloadFile } from '../../src/framework/csv';
import { failureText } from '../../src/framework/feedback';
import { usePaginationTexts } from '../../src/framework/list/usePaginationTexts';
import { downloadFailingRows, failingRowsKey, getFailingRows } from './api';
import type { RuleResult } from './types';

function cell(value: unknown): string {
  if (value === null || value === undefined) return '∅';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Failing rows of a result (its sample unless others are given), as the server sent them (pii columns already masked). */
export function SampleTable({ result, rows = result.sample ?? [] }: { result: RuleResult; rows?: readonly Record<string, unknown>[] }) {
  const translate = useTranslate();
  if (rows.length === 0) return null;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={translate('resources.tables.quality.sample_of', { name: result.ruleName })}>
        <TableHead>
          <TableRow>
            {columns.map((column) => (
              <TableCell key={column} sx={{ fontFamily: 'monospace' }}>
                {column}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row, index) => (
            <TableRow key={index}>
              {columns.map((column) => (
                <TableCell key={column} sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
                  {cell(row[column])}
                </TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Failing rows shown a page at a time. */
export const FAILING_ROWS_PAGE = 20;

/**
 * The failing rows one rule kept in a run (the company's sample size, up to 1,000), masked by the
 * server: a page at a time, and all of them as CSV. A server that does not keep them apart (its
 * call answers 404), or a result without its run, shows the sample the result carries.
 */
export function FailingRows({ runId, result }: { runId: string | undefined; result: RuleResult }) {
  const translate = useTranslate();
  const paginationTexts = usePaginationTexts();
  const [page, setPage] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const kept = useQuery({
    queryKey: [...failingRowsKey(runId ?? '', result.ruleId), page],
    queryFn: ({ signal }) => getFailingRows(runId!, result.ruleId, page * FAILING_ROWS_PAGE, FAILING_ROWS_PAGE, signal),
    enabled: Boolean(runId),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
  const rows = kept.data?.rows ?? result.sample ?? [];
  const count = kept.data?.count ?? rows.length;
  if (count === 0) return null;

  const download = async () => {
    setDownloading(true);
    alerts.loading();
    try {
      const { text, filename } = await downloadFailingRows(runId!, result.ruleId);
      downloadFile(text, filename ?? `${result.ruleName}-failing-rows.csv`);
      alerts.success(translate('resources.tables.quality.failing_rows_downloaded'));
    } catch (error) {
      alerts.error(failureText(error));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Box data-failing-rows={result.ruleId}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
          {translate('resources.tables.quality.sample', { smart_count: count })}
        </Typography>
        {kept.data && (
          <Button
            size="small"
            startIcon={<DownloadIcon />}
            onClick={() => void download()}
            disabled={downloading}
            aria-busy={downloading}
            aria-label={translate('resources.tables.quality.download_failing_rows_of', { name: result.ruleName })}
          >
            {translate('resources.tables.quality.download_failing_rows')}
          </Button>
        )}
      </Box>
      <SampleTable result={result} rows={rows} />
      {kept.data && count > FAILING_ROWS_PAGE && (
        <TablePagination
          component="div"
          count={count}
          page={page}
          rowsPerPage={FAILING_ROWS_PAGE}
          rowsPerPageOptions={[FAILING_ROWS_PAGE]}
          onPageChange={(_, next) => setPage(next)}
          labelDisplayedRows={({ from, to, count: total }) => translate('resources.tables.quality.failing_rows_range', { from, to, total })}
          getItemAriaLabel={paginationTexts.getItemAriaLabel}
        />
      )}
    </Box>
  );
}
