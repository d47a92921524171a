import { Alert, Box, Card, CardContent, LinearProgress, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { useRecordContext, useTranslate } from 'react-admin';
import { percentDone, useStepRows, useStepRowsTotal } from '../../src/app/live/liveProgress';
import { formatWhen } from '../tables/cells';
import { durationText, RunStatusChip, runDuration } from './cells';
import type { JobRun, JobRunStep } from './types';

function count(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toLocaleString('en');
}

/**
 * A step's log, monospace and scrolling within its box. While it grows it stays at its end,
 * unless the reader has scrolled up to read something.
 */
function StepLog({ step }: { step: JobRunStep }) {
  const translate = useTranslate();
  const ref = useRef<HTMLPreElement>(null);
  const following = useRef(true);
  useEffect(() => {
    const box = ref.current;
    if (box && following.current) box.scrollTop = box.scrollHeight;
  }, [step.log]);
  if (!step.log) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate('resources.job-runs.steps.no_log')}
      </Typography>
    );
  }
  return (
    <Box
      component="pre"
      ref={ref}
      role="log"
      tabIndex={0}
      aria-label={translate('resources.job-runs.steps.log_of', { name: step.name })}
      onScroll={(event) => {
        const box = event.currentTarget;
        following.current = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
      }}
      sx={{
        m: 0,
        p: 1.5,
        maxHeight: 320,
        overflow: 'auto',
        bgcolor: 'action.hover',
        borderRadius: 1,
        fontFamily: 'monospace',
        fontSize: '0.8rem',
        whiteSpace: 'pre-wrap',
        wordBreak: 'break-word',
      }}
    >
      {step.log}
    </Box>
  );
}

/**
 * How far a step has read, where its source said how many rows it has (the live stream carries
 * the count; the API does not keep it): a bar and "About 42% of about 25,000 rows".
 */
function StepProgress({ step, rowsRead }: { step: JobRunStep; rowsRead: number | null }) {
  const translate = useTranslate();
  const total = useStepRowsTotal(step.id);
  if (step.status !== 'running' && step.status !== 'succeeded') return null;
  const percent = percentDone(rowsRead, total, step.status === 'succeeded');
  if (percent === undefined || total === undefined) return null;
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <LinearProgress
        variant="determinate"
        value={percent}
        aria-label={translate('resources.job-runs.steps.progress_of', { name: step.name })}
        sx={{ flex: 1, maxWidth: 320 }}
      />
      <Typography variant="body2" data-percent={percent}>
        {translate('resources.job-runs.steps.percent', { percent, total: count(total) })}
      </Typography>
    </Box>
  );
}

function Step({ step, number }: { step: JobRunStep; number: number }) {
  const translate = useTranslate();
  const title = translate('resources.job-runs.steps.step', { position: number, name: step.name });
  // Never fewer rows than the page already showed: a read of the run may be older than the last event.
  const { rowsRead, rowsWritten } = useStepRows(step);
  return (
    <Card variant="outlined" component="section" aria-label={step.name} data-step={step.id}>
      <CardContent sx={{ display: 'grid', gap: 1 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="subtitle1" component="h3" sx={{ flex: 1 }}>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {translate(`resources.workflows.task_types.${step.type}`, { _: step.type })}
          </Typography>
          <RunStatusChip status={step.status} />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {formatWhen(step.startedAt)} → {formatWhen(step.endedAt)} ·{' '}
          {durationText(runDuration({ durationMs: null, startedAt: step.startedAt, endedAt: step.endedAt, status: step.status }))}
        </Typography>
        {(rowsRead !== null || rowsWritten !== null) && (
          <Typography variant="body2" data-rows>
            {translate('resources.job-runs.steps.rows_read')}: {count(rowsRead)} · {translate('resources.job-runs.steps.rows_written')}:{' '}
            {count(rowsWritten)}
          </Typography>
        )}
        <StepProgress step={step} rowsRead={rowsRead} />
        {step.error && <Alert severity="error">{step.error}</Alert>}
        <StepLog step={step} />
      </CardContent>
    </Card>
  );
}

/** The run's steps in order, each with its status, rows and log. */
export function StepsPanel(_: { label?: false }) {
  const run = useRecordContext<JobRun>();
  const translate = useTranslate();
  if (!run) return null;
  const steps = [...(run.steps ?? [])].sort((a, b) => a.position - b.position);
  return (
    <Box component="section" aria-label={translate('resources.job-runs.steps.title')} sx={{ display: 'grid', gap: 2, width: '100%' }}>
      {steps.length === 0 ? (
        <Typography variant="body2">{translate('resources.job-runs.steps.empty')}</Typography>
      ) : (
        // Numbered by order: the contract does not say where positions start.
        steps.map((step, index) => <Step key={step.id} step={step} number={index + 1} />)
      )}
    </Box>
  );
}
