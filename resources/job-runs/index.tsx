import { lazy } from 'react';
import { defineResource } from '../../src/framework/types';
import { durationText, RUN_STATUS_CHOICES, RunStatusChip, runDuration, StartedBy, startedByText, WorkflowLink } from './cells';
import type { JobRun } from './types';
import { jobRunsContract } from '../../common/contract/job-runs';
import { runQualityList, workflowRunsList } from './related';

export type { JobRun } from './types';

const TRIGGER_CHOICES = ['manual', 'schedule', 'api_key'].map((trigger) => ({
  id: trigger,
  name: `resources.job-runs.triggers.${trigger}`,
}));
const ENGINE_CHOICES = ['local', 'databricks'].map((engine) => ({ id: engine, name: `resources.job-runs.engines.${engine}` }));

/**
 * The job run tracker (docs/api/workflows.md "Job runs"; policy resource `workflows`): every run
 * of the company's workflows, newest first, filtered by workflow, status and queued dates. The
 * contract has no plain list of every run, so the list is the filter route with an empty body.
 * A run's page follows it live while it is queued or running.
 */
export const jobRuns = defineResource<JobRun>({
  contract: jobRunsContract,
  recordRepresentation: (run) => run.workflowName ?? String(run.id),
  messages: {
    en: {
      name: 'Job run |||| Job runs',
      fields: {
        workflowName: 'Workflow',
        triggeredByName: 'Started by',
        queuedAt: 'Queued',
        startedAt: 'Started',
        endedAt: 'Ended',
        durationMs: 'Duration',
        externalRunId: 'External run',
      },
      filters: { workflow: 'Workflow', status: 'Status', startDate: 'Queued from', endDate: 'Queued to' },
      statuses: {
        queued: 'Queued',
        running: 'Running',
        succeeded: 'Succeeded',
        failed: 'Failed',
        canceled: 'Canceled',
        timed_out: 'Timed out',
      },
      triggers: { manual: 'Manual', schedule: 'Schedule', api_key: 'API key' },
      engines: { local: 'Local runner', databricks: 'Databricks' },
      by_api_key: 'An API key',
      by_schedule: 'The schedule',
      title: 'Run of %{name}',
      summary: 'Run',
      live: 'Following the run: it is read again every few seconds until it ends',
      live_stream: 'Following the run: its changes show as they happen',
      attempt_of: 'Attempt %{attempt}',
      tabs: { steps: 'Steps', quality: 'Data quality' },
      steps: {
        title: 'Steps',
        empty: 'No step has started yet.',
        step: '%{position}. %{name}',
        rows_read: 'Rows read',
        rows_written: 'Rows written',
        log_of: 'Log of %{name}',
        no_log: 'No log yet.',
        percent: 'About %{percent}% of about %{total} rows',
        progress_of: 'Progress of %{name}',
      },
      cancel: {
        button: 'Cancel run',
        title: 'Cancel this run?',
        content: 'The runner stops it as soon as it can; the steps already done stay done.',
        asked: 'The run was asked to stop',
      },
      databricks: {
        title: 'Databricks',
        life_cycle: 'Life cycle',
        result: 'Result',
        message: 'Message',
        run_id: 'Databricks run',
        open: 'Open the run in Databricks',
        loading: 'Asking Databricks…',
      },
      quality: {
        title: 'Data-quality results',
        empty: 'This run kept no data-quality results.',
        none_match: 'No result matches.',
        names: 'Checks',
        columns: 'Columns',
        check: 'Check',
        status: 'Status',
        observed: 'Observed',
        rows_failed: 'Rows failed / scanned',
        sample: 'Failing rows',
      },
      runs: {
        title: 'Runs',
        empty: 'No runs yet.',
        none_match: 'No run matches.',
        statuses: 'Status',
        from: 'Queued from',
        to: 'Queued to',
      },
    },
  },
  fields: [
    { source: 'workflowName', type: 'text', render: (run) => <WorkflowLink id={run.workflowId} name={run.workflowName} /> },
    {
      source: 'status',
      type: 'status',
      choices: RUN_STATUS_CHOICES,
      render: (run) => <RunStatusChip status={run.status} />,
      exportValue: (run) => run.status,
    },
    { source: 'trigger', type: 'select', choices: TRIGGER_CHOICES },
    { source: 'triggeredByName', type: 'text', render: (run) => <StartedBy run={run} />, exportValue: startedByText },
    { source: 'queuedAt', type: 'datetime' },
    { source: 'startedAt', type: 'datetime' },
    { source: 'endedAt', type: 'datetime' },
    { source: 'durationMs', type: 'number', render: (run) => durationText(runDuration(run)), exportValue: (run) => runDuration(run) ?? '' },
    { source: 'attempt', type: 'number', list: 'hidden' },
    { source: 'engine', type: 'select', choices: ENGINE_CHOICES, list: 'hidden' },
    { source: 'gitCommit', type: 'text', list: 'hidden' },
    { source: 'error', type: 'longtext', list: 'hidden' },
  ],
  // Exactly the contract's filter of every run (docs/api/workflows.md, our extension).
  filters: [
    { source: 'workflow', type: 'autocomplete' },
    { source: 'status', type: 'multiselect', choices: RUN_STATUS_CHOICES },
    { source: 'dates', type: 'dateRange' },
  ],
  list: { rowClick: 'show' },
  relatedLists: [workflowRunsList, runQualityList],
  views: { show: lazy(() => import('./JobRunShow')) },
});
