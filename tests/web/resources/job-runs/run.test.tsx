import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi } from '../connections/connectionsApi';
import { PAIRS, workflowConnections, workflowsApi } from '../workflows/workflowsApi';
import { HOURLY, jobRun, RUN_FAILED, RUN_LIVE, runs, runsApi, step } from './runsApi';
import type { JobRun } from '../../../../resources/job-runs/types';
import { renderRuns, RUNS_TIMEOUT_MS } from './render';

const LIVE = jobRun({
  id: RUN_LIVE,
  status: 'running',
  startedAt: '2026-11-22T09:00:01.000Z',
  endedAt: null,
  durationMs: null,
  queuedAt: '2026-11-22T09:00:00.000Z',
});

function fakes(extra: JobRun[] = []) {
  const tracker = runsApi([...extra, ...runs()]);
  workflowsApi(undefined, tracker);
  connectionsApi(workflowConnections(), PAIRS);
  return tracker;
}

function summary(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'Run' });
}

const statusOf = (element: HTMLElement) => element.querySelector('[data-status]')?.textContent;

describe("a run's page", { timeout: RUNS_TIMEOUT_MS }, () => {
  it('shows the status, times, trigger, commit and error, and each step with its rows and its log', async () => {
    fakes();
    renderRuns(`/job-runs/${RUN_FAILED}/show`);
    const run = await summary();
    expect(statusOf(run)).toBe('Failed');
    expect(run).toHaveTextContent('Nightly orders');
    expect(run).toHaveTextContent('Schedule');
    expect(run).toHaveTextContent('The schedule');
    expect(run).toHaveTextContent(new Date('2026-11-21T02:00:01.000Z').toLocaleString());
    expect(run).toHaveTextContent('4 min 05 s');
    expect(within(run).getByText('9f8e7d6c5b4a')).toHaveAttribute('title', '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432');
    expect(within(run).getByRole('alert')).toHaveTextContent('Step "Check orders" failed: 1 rule failed');
    expect(within(run).queryByRole('status')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull();

    const copy = screen.getByRole('region', { name: 'Copy orders' });
    expect(copy).toHaveTextContent('1. Copy orders');
    expect(copy).toHaveTextContent('Rows read: 120,000 · Rows written: 120,000');
    const log = within(copy).getByRole('log', { name: 'Log of Copy orders' });
    expect(log.tagName).toBe('PRE');
    expect(log.textContent).toBe('batch 1: 10000 rows\nbatch 2: 10000 rows\ncopied 120000 rows');
    const check = screen.getByRole('region', { name: 'Check orders' });
    expect(statusOf(check)).toBe('Failed');
    expect(within(check).getByRole('alert')).toHaveTextContent('1 rule failed');
  });

  it('follows a queued or running run, reading it again until it has ended, without a reload', async () => {
    const tracker = fakes([LIVE]);
    const copying = step({
      id: 's-1',
      position: 0,
      name: 'Copy orders',
      type: 'copy',
      status: 'running',
      endedAt: null,
      log: 'batch 1: 10000 rows',
    });
    tracker.answers[RUN_LIVE] = [
      { ...LIVE, status: 'queued', startedAt: null, steps: [] },
      { ...LIVE, steps: [copying] },
      { ...LIVE, steps: [{ ...copying, log: 'batch 1: 10000 rows\nbatch 2: 10000 rows' }] },
      {
        ...LIVE,
        status: 'succeeded',
        endedAt: '2026-11-22T09:00:21.000Z',
        durationMs: 20_000,
        steps: [
          {
            ...copying,
            status: 'succeeded',
            endedAt: '2026-11-22T09:00:21.000Z',
            rowsRead: 20_000,
            rowsWritten: 20_000,
            log: 'batch 1: 10000 rows\nbatch 2: 10000 rows\ncopied 20000 rows',
          },
        ],
      },
    ];
    const reads = () => tracker.seen(new RegExp(`^GET /jobRunTracker/${RUN_LIVE}$`)).length;
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    const run = await summary();
    expect(statusOf(run)).toBe('Queued');
    expect(within(run).getByRole('status')).toHaveTextContent('Following the run');
    expect(screen.getByText('No step has started yet.')).toBeInTheDocument();

    await waitFor(() => expect(statusOf(run)).toBe('Running'), { timeout: 5000 });
    const log = await screen.findByRole('log', { name: 'Log of Copy orders' });
    expect(log.textContent).toBe('batch 1: 10000 rows');
    await waitFor(
      () => expect(screen.getByRole('log', { name: 'Log of Copy orders' }).textContent).toBe('batch 1: 10000 rows\nbatch 2: 10000 rows'),
      { timeout: 5000 },
    );
    await waitFor(() => expect(statusOf(run)).toBe('Succeeded'), { timeout: 5000 });
    expect(within(run).queryByRole('status')).toBeNull();
    expect(run).toHaveTextContent('20 s');
    expect(screen.getByRole('region', { name: 'Copy orders' })).toHaveTextContent('Rows read: 20,000 · Rows written: 20,000');
    expect(reads()).toBe(4);

    // Ended: no more reads.
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(reads()).toBe(4);
  });

  it('Cancel run asks PUT /jobRunTracker/{id}/cancel after a confirmation, while the run is live', async () => {
    const user = userEvent.setup();
    const tracker = fakes([LIVE]);
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    await summary();
    await user.click(await screen.findByRole('button', { name: 'Cancel run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this run?' });
    expect(tracker.seen(/cancel/)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel run' }));
    await waitFor(() => expect(tracker.seen(/cancel/)).toEqual([`PUT /jobRunTracker/${RUN_LIVE}/cancel`]));
    expect(await screen.findByRole('alert')).toHaveTextContent('Run of "Nightly orders" asked to stop');

    // Once the runner has stopped it, the button goes.
    tracker.answers[RUN_LIVE] = [{ ...LIVE, status: 'canceled', endedAt: '2026-11-22T09:00:05.000Z', durationMs: 4000 }];
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel run' })).toBeNull(), { timeout: 5000 });
    expect(statusOf(await summary())).toBe('Canceled');
  });

  it("a Databricks run shows Databricks' own state and the link to its run page", async () => {
    const databricksRun = jobRun({
      id: RUN_LIVE,
      workflowId: HOURLY,
      workflowName: 'Hourly refresh',
      engine: 'databricks',
      externalRunId: '991',
      status: 'running',
      endedAt: null,
      durationMs: null,
    });
    const tracker = fakes([databricksRun]);
    tracker.databricks[RUN_LIVE] = {
      runId: RUN_LIVE,
      externalRunId: '991',
      lifeCycleState: 'RUNNING',
      resultState: null,
      stateMessage: 'In run',
      status: 'running',
      runPageUrl: 'https://dbc.example.cloud.databricks.com/#job/4242/run/991',
    };
    renderRuns(`/job-runs/${RUN_LIVE}/show`);
    const panel = await screen.findByRole('region', { name: 'Databricks' });
    await waitFor(() => expect(panel.querySelector('[data-databricks="life_cycle"]')).toHaveTextContent('RUNNING'));
    expect(panel.querySelector('[data-databricks="run_id"]')).toHaveTextContent('991');
    expect(panel.querySelector('[data-databricks="message"]')).toHaveTextContent('In run');
    expect(within(panel).getByRole('link', { name: 'Open the run in Databricks' })).toHaveAttribute(
      'href',
      'https://dbc.example.cloud.databricks.com/#job/4242/run/991',
    );
    expect(tracker.seen(/databricks/)[0]).toBe(`GET /workflow/databricks/job/status/${RUN_LIVE}`);
  });

  it('the data-quality tab lists the results with the failing rows, filtered by check name and column', async () => {
    const user = userEvent.setup();
    const tracker = fakes();
    renderRuns(`/job-runs/${RUN_FAILED}/show/quality`);
    const section = await screen.findByRole('region', { name: 'Data-quality results' });
    const table = await within(section).findByRole('table', { name: 'Data-quality results' });
    expect(tracker.seen(/dataQuality/)).toEqual(
      expect.arrayContaining([
        `GET /jobRunTracker/${RUN_FAILED}/dataQuality?offset=0&limit=10`,
        `GET /dataQuality/filters?jobRunTrackerId=${RUN_FAILED}`,
      ]),
    );
    const email = table.querySelector('[data-result="q-1"]') as HTMLElement;
    expect(email).toHaveTextContent('Email present');
    expect(email).toHaveTextContent('email');
    expect(email).toHaveTextContent('Failed');
    expect(email).toHaveTextContent('2 / 1,000 (0.2%)');
    const sample = within(section).getByRole('table', { name: 'Failing rows of Email present' });
    expect(
      within(sample)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['idemailfull_name', '17∅***', '42∅***']);

    await user.click(within(section).getByRole('combobox', { name: 'Checks' }));
    await user.click(await screen.findByRole('option', { name: 'Email present' }));
    await user.click(await screen.findByRole('option', { name: 'Amount range' }));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(tracker.bodiesOf(/^POST \/dataQuality\/filters/).at(-1)).toEqual({
        qualityName: ['Email present', 'Amount range'],
        offset: 0,
        limit: 10,
      }),
    );
    await user.click(within(section).getByRole('combobox', { name: 'Columns' }));
    await user.click(await screen.findByRole('option', { name: 'amount' }));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(tracker.bodiesOf(/^POST \/dataQuality\/filters/).at(-1)).toEqual({
        qualityName: ['Email present', 'Amount range'],
        columnName: ['amount'],
        offset: 0,
        limit: 10,
      }),
    );
    expect(tracker.seen(/^POST \/dataQuality/).at(-1)).toBe(`POST /dataQuality/filters?jobRunTrackerId=${RUN_FAILED}`);
    await waitFor(() => expect(within(section).queryByText('Email present')).toBeNull());
    expect(within(section).getByText('Amount range')).toBeInTheDocument();
  });
});
