import { Show, TabbedShowLayout, TopToolbar, useRecordContext } from 'react-admin';
import { CancelRunButton } from './CancelRunButton';
import { DatabricksPanel } from './DatabricksPanel';
import { refetchWhileLive } from './hooks';
import { QualityResultsTab } from './QualityResultsTab';
import { RunSummary } from './RunSummary';
import { StepsPanel } from './StepsPanel';
import type { JobRun } from './types';

function RunBody() {
  const run = useRecordContext<JobRun>();
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
 * queued or running the page reads it again every LIVE_REFRESH_MS and stops once it has ended.
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
