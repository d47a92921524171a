import { Alert, Box, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { failedRowsText, formatObserved, RunStatusChip as ResultStatusChip } from '../tables/cells';
import { Pager } from '../tables/Pager';
import { RuleNameCell, SampleTable } from '../tables/RunResults';
import { MultiSelect } from './FilterInputs';
import { useRunQuality } from './hooks';
import type { JobRun, RunQualityResult } from './types';

function ResultRows({ result }: { result: RunQualityResult }) {
  const translate = useTranslate();
  const sample = result.sample ?? [];
  return (
    <>
      <TableRow data-result={result.id} sx={sample.length > 0 || result.message ? { '& > td': { borderBottom: 'none' } } : undefined}>
        <RuleNameCell ruleName={result.ruleName} columnName={result.columnName} />
        <TableCell>
          <ResultStatusChip status={result.status} />
        </TableCell>
        <TableCell>{formatObserved(result.observed)}</TableCell>
        <TableCell>{failedRowsText(result)}</TableCell>
      </TableRow>
      {(sample.length > 0 || result.message) && (
        <TableRow>
          <TableCell colSpan={4} sx={{ pt: 0 }}>
            {result.message && (
              <Alert severity={result.status === 'error' ? 'error' : 'info'} sx={{ py: 0, mb: 1 }}>
                {result.message}
              </Alert>
            )}
            {sample.length > 0 && (
              <>
                <Typography variant="caption" color="text.secondary">
                  {translate('resources.job-runs.quality.sample')}
                </Typography>
                <SampleTable result={result} />
              </>
            )}
          </TableCell>
        </TableRow>
      )}
    </>
  );
}

function QualityBody({ run }: { run: JobRun }) {
  const translate = useTranslate();
  const { filter, change, paging, query, choices } = useRunQuality(run);
  const title = translate('resources.job-runs.quality.title');
  const filtered = filter.qualityName.length > 0 || filter.columnName.length > 0;

  let body;
  if (query.isPending) body = <Skeleton variant="rectangular" height={120} />;
  else if (query.isError) body = <Alert severity="error">{failureText(query.error)}</Alert>;
  else if (query.data.rows.length === 0)
    body = (
      <Typography variant="body2">
        {translate(filtered ? 'resources.job-runs.quality.none_match' : 'resources.job-runs.quality.empty')}
      </Typography>
    );
  else
    body = (
      <Table size="small" aria-label={title} aria-busy={query.isFetching}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.job-runs.quality.check')}</TableCell>
            <TableCell>{translate('resources.job-runs.quality.status')}</TableCell>
            <TableCell>{translate('resources.job-runs.quality.observed')}</TableCell>
            <TableCell>{translate('resources.job-runs.quality.rows_failed')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {query.data.rows.map((result) => (
            <ResultRows key={result.id} result={result} />
          ))}
        </TableBody>
      </Table>
    );

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <MultiSelect
          label={translate('resources.job-runs.quality.names')}
          value={filter.qualityName}
          choices={choices.data?.qualityName ?? []}
          onChange={(qualityName) => change({ qualityName })}
        />
        <MultiSelect
          label={translate('resources.job-runs.quality.columns')}
          value={filter.columnName}
          choices={choices.data?.columnName ?? []}
          onChange={(columnName) => change({ columnName })}
        />
      </Box>
      {body}
      <Pager data={query.data} page={paging.page} setPage={paging.setPage} />
    </Box>
  );
}

/**
 * What the run's quality tasks measured: each check's status, observed value, failed rows and
 * the failing-row sample (masked by the server), filtered by check name and column.
 */
export function QualityResultsTab(_: { label?: false }) {
  const run = useRecordContext<JobRun>();
  return run ? <QualityBody run={run} /> : null;
}
