import { Alert, Box } from '@mui/material';
import { useTranslate, WithRecord } from 'react-admin';
import { RelatedTable, type RelatedColumn } from '../../src/framework/related/RelatedTable';
import { CoverageChips, failedRowsText, formatObserved, RunStatusChip as ResultStatusChip } from '../tables/cells';
import { FailingRows } from '../tables/FailingRows';
import { RuleName } from '../tables/RunResults';
import { MultiSelect } from './FilterInputs';
import { useRunQuality } from './hooks';
import type { JobRun, RunQualityResult } from './types';

const COLUMNS: readonly RelatedColumn<RunQualityResult>[] = [
  {
    label: 'resources.job-runs.quality.check',
    render: (result) => (
      <>
        <RuleName ruleName={result.ruleName} columnName={result.columnName} />
        <CoverageChips result={result} />
      </>
    ),
  },
  { label: 'resources.job-runs.quality.status', render: (result) => <ResultStatusChip status={result.status} /> },
  { label: 'resources.job-runs.quality.observed', render: (result) => formatObserved(result.observed) },
  { label: 'resources.job-runs.quality.rows_failed', render: (result) => failedRowsText(result) },
];

/** The data-quality run that kept a result, where the server names it. */
const qualityRunOf = (result: RunQualityResult) => (result as RunQualityResult & { qualityRunId?: string }).qualityRunId;

/** Under a result: the server's message and the failing rows the run kept, when it has them. */
function ResultDetail({ result }: { result: RunQualityResult }) {
  const sample = result.sample ?? [];
  return (
    <>
      {result.message && (
        <Alert severity={result.status === 'error' ? 'error' : 'info'} sx={{ py: 0, mb: 1 }}>
          {result.message}
        </Alert>
      )}
      {sample.length > 0 && <FailingRows runId={qualityRunOf(result)} result={result} />}
    </>
  );
}

function QualityBody({ run }: { run: JobRun }) {
  const translate = useTranslate();
  const { filter, change, list, choices } = useRunQuality(run);
  const title = translate('resources.job-runs.quality.title');
  const filtered = filter.qualityName.length > 0 || filter.columnName.length > 0;

  return (
    <Box component="section" aria-label={title} sx={{ width: '100%' }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
        <MultiSelect
          label={translate('resources.job-runs.quality.names')}
          value={filter.qualityName}
          choices={choices.data?.qualityName ?? []}
          translateChoice={false}
          onChange={(qualityName) => change({ qualityName })}
        />
        <MultiSelect
          label={translate('resources.job-runs.quality.columns')}
          value={filter.columnName}
          choices={choices.data?.columnName ?? []}
          translateChoice={false}
          onChange={(columnName) => change({ columnName })}
        />
      </Box>
      <RelatedTable
        list={list}
        label={title}
        columns={COLUMNS}
        rowProps={(result) => ({ 'data-result': result.id })}
        detail={(result) => ((result.sample?.length ?? 0) > 0 || result.message ? <ResultDetail result={result} /> : null)}
        empty={filtered ? 'resources.job-runs.quality.none_match' : 'resources.job-runs.quality.empty'}
      />
    </Box>
  );
}

/**
 * What the run's quality tasks measured: each check's status, observed value, failed rows and
 * the failing rows the run kept (masked by the server; paged, and as CSV), filtered by check name and column.
 */
export function QualityResultsTab(_: { label?: false }) {
  return <WithRecord<JobRun> render={(run) => <QualityBody run={run} />} />;
}
