import { Alert, Box, Card, CardContent, Skeleton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { failureText } from '../../src/framework/feedback';
import { formatWhen } from '../tables/cells';
import { Pager } from '../tables/Pager';
import { durationText, RUN_STATUS_CHOICES, RunStatusChip, runDuration, runPath, StartedBy, TriggerText } from './cells';
import { DateFilter, MultiSelect } from './FilterInputs';
import { useWorkflowRuns } from './hooks';
import type { JobRun } from './types';

const field = (name: string) => `resources.job-runs.fields.${name}`;

function RunRow({ run }: { run: JobRun }) {
  const createPath = useCreatePath();
  return (
    <TableRow data-run={run.id}>
      <TableCell>
        <Link to={runPath(createPath, String(run.id))}>{formatWhen(run.queuedAt)}</Link>
      </TableCell>
      <TableCell>
        <RunStatusChip status={run.status} />
      </TableCell>
      <TableCell>
        <TriggerText run={run} />
      </TableCell>
      <TableCell>
        <StartedBy run={run} />
      </TableCell>
      <TableCell>{formatWhen(run.startedAt)}</TableCell>
      <TableCell>{formatWhen(run.endedAt)}</TableCell>
      <TableCell>{durationText(runDuration(run))}</TableCell>
    </TableRow>
  );
}

/**
 * One workflow's runs, newest first, on its page: `GET /jobRunTracker/{workflowId}/…`, or the
 * filter route with `?workflowId=` once statuses or dates are chosen. Each run leads to its page;
 * the list follows runs that are still queued or running.
 */
export function WorkflowRuns({ workflowId }: { workflowId: string }) {
  const translate = useTranslate();
  const { filter, change, paging, query } = useWorkflowRuns(workflowId);
  const title = translate('resources.job-runs.runs.title');
  const filtered = filter.status.length > 0 || Boolean(filter.startDate || filter.endDate);

  let body;
  if (query.isPending) body = <Skeleton variant="rectangular" height={80} />;
  else if (query.isError) body = <Alert severity="error">{failureText(query.error)}</Alert>;
  else if (query.data.rows.length === 0)
    body = (
      <Typography variant="body2">
        {translate(filtered ? 'resources.job-runs.runs.none_match' : 'resources.job-runs.runs.empty')}
      </Typography>
    );
  else
    body = (
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={title} aria-busy={query.isFetching}>
          <TableHead>
            <TableRow>
              {['queuedAt', 'status', 'trigger', 'triggeredByName', 'startedAt', 'endedAt', 'durationMs'].map((name) => (
                <TableCell key={name}>{translate(field(name))}</TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {query.data.rows.map((run) => (
              <RunRow key={run.id} run={run} />
            ))}
          </TableBody>
        </Table>
      </Box>
    );

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
        {body}
        <Pager data={query.data} page={paging.page} setPage={paging.setPage} />
      </CardContent>
    </Card>
  );
}
