import { Chip } from '@mui/material';
import { Link, useCreatePath, useTranslate } from 'react-admin';
import { RUN_STATUSES } from '../../common/schemas/workflows';
import { stopRowClick } from '../../src/framework/feedback';
import type { JobRun, JobRunStatus } from './types';

type ChipColour = 'default' | 'info' | 'success' | 'error' | 'warning' | 'secondary';

const COLOURS: Record<JobRunStatus, ChipColour> = {
  queued: 'secondary',
  running: 'info',
  succeeded: 'success',
  failed: 'error',
  canceled: 'default',
  timed_out: 'warning',
};

/** A run is live while the runner may still change it. */
export function isLive(status: string | null | undefined): boolean {
  return status === 'queued' || status === 'running';
}

/** The statuses as a select's choices, named by the console's texts. */
export const RUN_STATUS_CHOICES = RUN_STATUSES.map((status) => ({ id: status, name: `resources.job-runs.statuses.${status}` }));

/** A run's (or a step's) status. */
export function RunStatusChip({ status }: { status: JobRunStatus | string }) {
  const translate = useTranslate();
  const colour = COLOURS[status as JobRunStatus] ?? 'default';
  return (
    <Chip
      size="small"
      color={colour}
      variant={colour === 'default' ? 'outlined' : 'filled'}
      label={translate(`resources.job-runs.statuses.${status}`, { _: status })}
      data-status={status}
    />
  );
}

/** A duration as people read it: "850 ms", "12.5 s", "4 min 05 s", "2 h 03 min". */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toLocaleString('en', { maximumFractionDigits: 1 })} s`;
  const whole = Math.floor(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes} min ${String(whole % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** How long a run took, or has been going while it runs (measured against `now`). */
export function runDuration(run: Pick<JobRun, 'durationMs' | 'startedAt' | 'endedAt' | 'status'>, now: number = Date.now()): number | null {
  if (run.durationMs !== null && run.durationMs !== undefined) return run.durationMs;
  if (!run.startedAt) return null;
  const end = run.endedAt ? Date.parse(run.endedAt) : isLive(run.status) ? now : NaN;
  const ms = end - Date.parse(run.startedAt);
  return Number.isFinite(ms) ? ms : null;
}

export function TriggerText({ run }: { run: Pick<JobRun, 'trigger'> }) {
  const translate = useTranslate();
  return <>{translate(`resources.job-runs.triggers.${run.trigger}`, { _: run.trigger })}</>;
}

/** Who started a run: the person, or an API key, or the schedule. */
export function StartedBy({ run }: { run: Pick<JobRun, 'trigger' | 'triggeredByName' | 'apiKeyId'> }) {
  const translate = useTranslate();
  if (run.triggeredByName) return <>{run.triggeredByName}</>;
  if (run.trigger === 'api_key' || run.apiKeyId) return <>{translate('resources.job-runs.by_api_key')}</>;
  if (run.trigger === 'schedule') return <>{translate('resources.job-runs.by_schedule')}</>;
  return <>—</>;
}

export function startedByText(run: Pick<JobRun, 'trigger' | 'triggeredByName' | 'apiKeyId'>): string {
  if (run.triggeredByName) return run.triggeredByName;
  if (run.trigger === 'api_key' || run.apiKeyId) return 'API key';
  if (run.trigger === 'schedule') return 'schedule';
  return '';
}

/** The workflow of a run, leading to its page. */
export function WorkflowLink({ id, name }: { id: string; name: string | null }) {
  const createPath = useCreatePath();
  return (
    <Link to={createPath({ resource: 'workflows', type: 'show', id })} onClick={stopRowClick}>
      {name ?? id}
    </Link>
  );
}

/** Where a run's page is. */
export function runPath(createPath: ReturnType<typeof useCreatePath>, runId: string): string {
  return createPath({ resource: 'job-runs', type: 'show', id: runId });
}
