import { Alert, Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useLiveStatus } from '../../src/app/live/liveState';
import { formatWhen } from '../tables/cells';
import { durationText, isLive, RunStatusChip, runDuration, StartedBy, TriggerText, WorkflowLink } from './cells';
import type { JobRun } from './types';
import { Spinner } from '../../src/framework/Spinner';

function Item({ label, children }: { label: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box>
      <Typography component="dt" variant="caption" color="text.secondary">
        {translate(label)}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

const field = (name: string) => `resources.job-runs.fields.${name}`;

/** A run at a glance: its status (and whether it is being followed), times, trigger, commit and error. */
export function RunSummary({ run }: { run: JobRun }) {
  const translate = useTranslate();
  const live = isLive(run.status);
  const streaming = useLiveStatus() === 'open';
  return (
    <Card variant="outlined" component="section" aria-label={translate('resources.job-runs.summary')} sx={{ mb: 2 }}>
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, mb: 2, flexWrap: 'wrap' }}>
          <RunStatusChip status={run.status} />
          {live && (
            <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
              <Spinner size={14} />
              <Typography variant="body2">{translate(streaming ? 'resources.job-runs.live_stream' : 'resources.job-runs.live')}</Typography>
            </Box>
          )}
        </Box>
        <Box component="dl" sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' }}>
          <Item label={field('workflowName')}>
            <WorkflowLink id={run.workflowId} name={run.workflowName} />
          </Item>
          <Item label={field('trigger')}>
            <TriggerText run={run} />
            {run.attempt && run.attempt > 1 ? ` · ${translate('resources.job-runs.attempt_of', { attempt: run.attempt })}` : ''}
          </Item>
          <Item label={field('triggeredByName')}>
            <StartedBy run={run} />
          </Item>
          <Item label={field('engine')}>{run.engine ? translate(`resources.job-runs.engines.${run.engine}`, { _: run.engine }) : '—'}</Item>
          <Item label={field('queuedAt')}>{formatWhen(run.queuedAt)}</Item>
          <Item label={field('startedAt')}>{formatWhen(run.startedAt)}</Item>
          <Item label={field('endedAt')}>{formatWhen(run.endedAt)}</Item>
          <Item label={field('durationMs')}>{durationText(runDuration(run))}</Item>
          {run.gitCommit && (
            <Item label={field('gitCommit')}>
              <Box component="code" title={run.gitCommit} sx={{ fontFamily: 'monospace' }}>
                {run.gitCommit.slice(0, 12)}
              </Box>
            </Item>
          )}
        </Box>
        {run.error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {run.error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
