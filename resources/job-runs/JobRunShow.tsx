import { useEffect, useState } from 'react';
import { Show, TabbedShowLayout, TopToolbar, useRecordContext } from 'react-admin';
import { alerts } from '../../providers/alerts';
import { CancelRunButton } from './CancelRunButton';
import { DatabricksPanel } from './DatabricksPanel';
import { refetchWhileLive } from './hooks';
import { QualityResultsTab } from './QualityResultsTab';
import { RunSummary } from './RunSummary';
import { StepsPanel } from './StepsPanel';
import type { JobRun } from './types';

/**
 * The message that came with the run's page ("The run was queued": the one alert a route change
 * to this page keeps) stays while the run waits, and goes once the run has started, when it
 * would say something no longer true.
 */
function useQueuedMessageUntilStarted(run: JobRun | undefined) {
  const [arrivedWith] = useState(() => alerts.get());
  const status = run?.status;
  useEffect(() => {
    if (!status || status === 'queued' || arrivedWith.type !== 'success') return;
    const shown = alerts.get();
    if (shown.type === 'success' && shown.message === arrivedWith.message) alerts.clear();
  }, [arrivedWith, status]);
}

function RunBody() {
  const run = useRecordContext<JobRun>();
  useQueuedMessageUntilStarted(run);
  if (!run) return null;
  return (
    <>
      <RunSummary run={run} />
      {run.engine === 'databricks' && <DatabricksPanel run={run} />}
      <TabbedShowLayout>
        <TabbedShowLayout.Tab label="resources.job-runs.tabs.steps">
          <StepsPanel label={false} />
        </TabbedShowLayout.Tab>
        <TabbedShowLayout.Tab label="resources.job-runs.tabs.quality" path="quality">
          <QualityResultsTab label={false} />
        </TabbedShowLayout.Tab>
      </TabbedShowLayout>
    </>
  );
}

/**
 * A run's page (`/job-runs/{id}/show`): its summary, the Databricks side for a Databricks run,
 * its steps with their logs, and its data-quality results (`…/show/quality`). While the run is
 * queued or running the live stream brings its changes (src/app/live); while the stream is not
 * open the page reads it again every LIVE_REFRESH_MS, and stops once it has ended.
 */
export default function JobRunShow() {
  return (
    <Show
      actions={
        <TopToolbar>
          <CancelRunButton />
        </TopToolbar>
      }
      queryOptions={{ refetchInterval: refetchWhileLive }}
    >
      <RunBody />
    </Show>
  );
}
