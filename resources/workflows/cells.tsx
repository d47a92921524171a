import { Box, Typography } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { stopRowClick } from '../../src/framework/feedback';
import { RunStatusChip, runPath } from '../job-runs/cells';
import { formatWhen } from '../tables/cells';
import type { Workflow } from './types';

/** The pair it copies through: "Source → Destination". */
export function pairText(workflow: Pick<Workflow, 'sourceName' | 'destinationName' | 'pairName'>): string {
  if (workflow.sourceName || workflow.destinationName) return `${workflow.sourceName ?? '—'} → ${workflow.destinationName ?? '—'}`;
  return workflow.pairName ?? '—';
}

export function PairCell({ workflow }: { workflow: Workflow }) {
  return (
    <Box component="span" title={workflow.pairName ?? undefined}>
      {pairText(workflow)}
    </Box>
  );
}

/** Its schedule: the cron expression in its time zone and the next run, or "not scheduled". */
export function ScheduleCell({ workflow }: { workflow: Workflow }) {
  const translate = useTranslate();
  if (!workflow.schedule) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {translate('resources.workflows.schedule.off')}
      </Box>
    );
  }
  return (
    <Box component="span" sx={{ display: 'inline-grid' }}>
      <Box component="code" sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>
        {workflow.schedule.cron}
      </Box>
      <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: 'nowrap' }}>
        {workflow.schedule.timezone}
        {' · '}
        {workflow.nextRunAt
          ? translate('resources.workflows.schedule.next', { when: formatWhen(workflow.nextRunAt) })
          : translate('resources.workflows.schedule.no_next')}
      </Typography>
    </Box>
  );
}

export function scheduleText(workflow: Workflow): string {
  return workflow.schedule ? `${workflow.schedule.cron} (${workflow.schedule.timezone})` : '';
}

/** The last run's status, leading to the run; "never run" without one. */
export function LastRunCell({ workflow }: { workflow: Workflow }) {
  const translate = useTranslate();
  const createPath = useCreatePath();
  if (!workflow.lastRun) {
    return (
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {translate('resources.workflows.never_run')}
      </Box>
    );
  }
  return (
    <Link
      to={runPath(createPath, String(workflow.lastRun.id))}
      onClick={stopRowClick}
      aria-label={translate('resources.workflows.last_run_of', { name: workflow.name })}
    >
      <RunStatusChip status={workflow.lastRun.status} />
    </Link>
  );
}

/** Retries, timeout and concurrency in one line. */
export function RunSettings({ workflow }: { workflow: Workflow }) {
  const translate = useTranslate();
  const retries = workflow.retries ?? { max: 0, backoffSeconds: 60 };
  return (
    <>
      {translate('resources.workflows.settings_line', {
        retries: retries.max,
        backoff: retries.backoffSeconds,
        timeout: workflow.timeoutMinutes ?? 60,
        concurrency: workflow.concurrency ?? 1,
      })}
    </>
  );
}

/** Where failures are told: in the console, Slack, mail. */
export function FailureNotices({ workflow }: { workflow: Workflow }) {
  const translate = useTranslate();
  const notice = workflow.notifyOnFailure;
  const parts = [
    notice?.inApp !== false ? translate('resources.workflows.notices.in_app') : null,
    notice?.slackConnectionId ? translate('resources.workflows.notices.slack') : null,
    (notice?.emails?.length ?? 0) > 0 ? notice!.emails!.join(', ') : null,
  ].filter(Boolean);
  return <>{parts.length > 0 ? parts.join(' · ') : translate('resources.workflows.notices.none')}</>;
}
