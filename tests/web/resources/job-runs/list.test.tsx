import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi } from '../connections/connectionsApi';
import { PAIRS, workflowConnections, workflowsApi } from '../workflows/workflowsApi';
import { HOURLY, RUN_FAILED, runsApi } from './runsApi';
import { renderRuns, RUNS_TIMEOUT_MS } from './render';
import { listToolbarShown } from '../../listPage';

function fakes() {
  const tracker = runsApi();
  workflowsApi(undefined, tracker);
  connectionsApi(workflowConnections(), PAIRS);
  return tracker;
}

const FILTER_ROUTE = /^POST \/jobRunTracker\/filters\?offset=0&limit=10$/;

describe('the job run tracker', { timeout: RUNS_TIMEOUT_MS }, () => {
  it("lists every run of the company, newest first: the filter route's body empty", async () => {
    const tracker = fakes();
    renderRuns('/job-runs');
    const nightly = (await screen.findByRole('link', { name: 'Nightly orders' })).closest('tr')!;
    expect(tracker.seen(/^POST \/jobRunTracker/)).toEqual(['POST /jobRunTracker/filters?offset=0&limit=10']);
    expect(tracker.bodiesOf(FILTER_ROUTE)).toEqual([{}]);
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(
      expect.arrayContaining(['Workflow', 'Status', 'Trigger', 'Started by', 'Queued', 'Started', 'Ended', 'Duration']),
    );
    expect(nightly).toHaveTextContent('Failed');
    expect(nightly).toHaveTextContent('Schedule');
    expect(nightly).toHaveTextContent('The schedule');
    expect(nightly).toHaveTextContent('4 min 05 s');
    const hourly = screen.getByRole('link', { name: 'Hourly refresh' }).closest('tr')!;
    expect(hourly).toHaveTextContent('Succeeded');
    expect(hourly).toHaveTextContent('API key');
    expect(hourly).toHaveTextContent('An API key');
    expect(hourly).toHaveTextContent('850 ms');
  });

  it('filters by workflow and by several statuses: exactly those fields in the body', async () => {
    const user = userEvent.setup();
    const tracker = fakes();
    renderRuns('/job-runs');
    await screen.findByRole('link', { name: 'Nightly orders' });
    await listToolbarShown();
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await user.click(await screen.findByRole('option', { name: 'Succeeded' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(tracker.bodiesOf(FILTER_ROUTE).at(-1)).toEqual({ status: ['failed', 'succeeded'] }));
    await user.click(screen.getByRole('combobox', { name: 'Workflow' }));
    await user.click(await screen.findByRole('option', { name: 'Hourly refresh' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(tracker.bodiesOf(FILTER_ROUTE).at(-1)).toEqual({ status: ['failed', 'succeeded'], workflow: [HOURLY] }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Nightly orders' })).toBeNull());
    expect(screen.getByRole('link', { name: 'Hourly refresh' })).toBeInTheDocument();
  });

  it('opens filtered from a link (a dashboard bar: a status on a day), and a row opens the run', async () => {
    const user = userEvent.setup();
    const tracker = fakes();
    const filter = encodeURIComponent(JSON.stringify({ status: ['failed'], startDate: '2026-11-21', endDate: '2026-11-21' }));
    const view = renderRuns(`/job-runs?filter=${filter}`);
    await screen.findByRole('link', { name: 'Nightly orders' });
    expect(tracker.bodiesOf(FILTER_ROUTE)).toEqual([{ status: ['failed'], startDate: '2026-11-21', endDate: '2026-11-21' }]);
    expect(screen.queryByRole('link', { name: 'Hourly refresh' })).toBeNull();
    await user.click(screen.getByText('The schedule'));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_FAILED}/show`));
    expect(await screen.findByRole('region', { name: 'Copy orders' })).toBeInTheDocument();
    expect(tracker.seen()).toContain(`GET /jobRunTracker/${RUN_FAILED}`);
  });
});
