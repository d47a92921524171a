import { act, screen, waitFor, within } from '@testing-library/react';
import { alerts } from '../../../../providers/alerts';
import { liveProgress } from '../../../../src/app/live/liveProgress';
import { connectionsApi } from '../connections/connectionsApi';
import { PAIRS, workflowConnections, workflowsApi } from '../workflows/workflowsApi';
import { jobRun, RUN_LIVE, runs, runsApi, step } from './runsApi';
import { renderRuns, RUNS_TIMEOUT_MS } from './render';

/** The run page while a run goes: its percentage where the rows are counted, and the queued message until it starts. */

const QUEUED = jobRun({ id: RUN_LIVE, status: 'queued', startedAt: null, endedAt: null, durationMs: null, steps: [] });
const copying = step({ id: 's-live', position: 0, name: 'Copy orders', type: 'copy', status: 'running', endedAt: null, rowsRead: 5_000 });
const RUNNING = { ...QUEUED, status: 'running' as const, startedAt: '2026-11-22T09:00:01.000Z', steps: [copying] };

function fakes() {
  const tracker = runsApi([QUEUED, ...runs()]);
  workflowsApi(undefined, tracker);
  connectionsApi(workflowConnections(), PAIRS);
  return tracker;
}

afterEach(() => liveProgress.clear());

describe("a live run's page", { timeout: RUNS_TIMEOUT_MS }, () => {
  it('keeps "The run was queued" while the run waits, and drops it once the run has started', async () => {
    const tracker = fakes();
    tracker.answers[RUN_LIVE] = [QUEUED, QUEUED, RUNNING];
    alerts.success('Workflow run queued', { keepFor: `/job-runs/${RUN_LIVE}/show` });
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    const summary = await screen.findByRole('region', { name: 'Run' });
    expect(summary.querySelector('[data-status]')?.textContent).toBe('Queued');
    expect(screen.getByText('Workflow run queued')).toBeInTheDocument();
    await waitFor(() => expect(summary.querySelector('[data-status]')?.textContent).toBe('Running'), { timeout: 6_000 });
    await waitFor(() => expect(screen.queryByText('Workflow run queued')).toBeNull());
  });

  it('shows how far a step has read where its source counted the rows, and nothing where it did not', async () => {
    const tracker = fakes();
    tracker.answers[RUN_LIVE] = [RUNNING];
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    const copy = await screen.findByRole('region', { name: 'Copy orders' });
    expect(within(copy).queryByRole('progressbar')).toBeNull();
    act(() => liveProgress.setTotal('s-live', 20_000));
    const bar = await within(copy).findByRole('progressbar', { name: 'Progress of Copy orders' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(copy).toHaveTextContent('About 25% of about 20,000 rows');
  });

  it('never goes back: a read of the run older than the last event does not lower the rows shown', async () => {
    const tracker = fakes();
    tracker.answers[RUN_LIVE] = [RUNNING];
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    const copy = await screen.findByRole('region', { name: 'Copy orders' });
    // The stream told of 10,000 rows read; the run as read says 5,000 (it was read before).
    act(() => liveProgress.note('s-live', { rowsRead: 10_000, rowsWritten: 9_000, rowsTotal: 20_000 }));
    const bar = await within(copy).findByRole('progressbar', { name: 'Progress of Copy orders' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(copy).toHaveTextContent('Rows read: 10,000 · Rows written: 9,000');
    // A later event with fewer rows (out of order) changes nothing either.
    act(() => liveProgress.note('s-live', { rowsRead: 8_000 }));
    expect(bar).toHaveAttribute('aria-valuenow', '50');
  });
});
