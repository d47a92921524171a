import { Box, Card, CardContent, Typography } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { RelatedTable, type RelatedColumn } from '../../src/framework/related/RelatedTable';
import { formatWhen } from '../tables/cells';
import { durationText, RUN_STATUS_CHOICES, RunStatusChip, runDuration, runPath, StartedBy, TriggerText } from './cells';
import { DateFilter, MultiSelect } from './FilterInputs';
import { useWorkflowRuns } from './hooks';
import type { JobRun } from './types';

const field = (name: string) => `resources.job-runs.fields.${name}`;

function QueuedLink({ run }: { run: JobRun }) {
  const createPath = useCreatePath();
  return <Link to={runPath(createPath, String(run.id))}>{formatWhen(run.queuedAt)}</Link>;
}

const COLUMNS: readonly RelatedColumn<JobRun>[] = [
  { label: field('queuedAt'), render: (run) => <QueuedLink run={run} /> },
  { label: field('status'), render: (run) => <RunStatusChip status={run.status} /> },
  { label: field('trigger'), render: (run) => <TriggerText run={run} /> },
  { label: field('triggeredByName'), render: (run) => <StartedBy run={run} /> },
  { label: field('startedAt'), render: (run) => formatWhen(run.startedAt) },
  { label: field('endedAt'), render: (run) => formatWhen(run.endedAt) },
  { label: field('durationMs'), render: (run) => durationText(runDuration(run)) },
];

/**
 * One workflow's runs, newest first, on its page: `GET /jobRunTracker/{workflowId}/…`, or the
 * filter route with `?workflowId=` once statuses or dates are chosen. Each run leads to its page;
 * the list follows runs that are still queued or running.
 */
export function WorkflowRuns({ workflowId }: { workflowId: string }) {
  const translate = useTranslate();
  const { filter, change, list } = useWorkflowRuns(workflowId);
  const title = translate('resources.job-runs.runs.title');
  const filtered = filter.status.length > 0 || Boolean(filter.startDate || filter.endDate);

  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ width: '100%', mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {title}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 2 }}>
          <MultiSelect
            label={translate('resources.job-runs.runs.statuses')}
            value={filter.status}
            choices={RUN_STATUS_CHOICES}
            onChange={(status) => change({ status })}
          />
          <DateFilter
            label={translate('resources.job-runs.runs.from')}
            value={filter.startDate}
            onChange={(startDate) => change({ startDate })}
          />
          <DateFilter label={translate('resources.job-runs.runs.to')} value={filter.endDate} onChange={(endDate) => change({ endDate })} />
        </Box>
        <Box sx={{ overflowX: 'auto' }}>
          <RelatedTable
            list={list}
            label={title}
            columns={COLUMNS}
            rowProps={(run) => ({ 'data-run': run.id })}
            empty={filtered ? 'resources.job-runs.runs.none_match' : 'resources.job-runs.runs.empty'}
            loadingHeight={80}
          />
        </Box>
      </CardContent>
    </Card>
  );
}
