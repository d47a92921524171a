import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi } from '../connections/connectionsApi';
import { HOURLY, jobRun, NIGHTLY, RUN_FAILED, runs, runsApi } from '../job-runs/runsApi';
import { tablesApi } from '../tables/tablesApi';
import { renderWorkflows, WORKFLOWS_TIMEOUT_MS } from './render';
import { PAIRS, tableRows, workflowConnections, workflowsApi } from './workflowsApi';

function fakes(extraRuns = 0) {
  const older = Array.from({ length: extraRuns }, (_, index) =>
    jobRun({
      id: `e1000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      queuedAt: `2026-11-${String(19 - (index % 9)).padStart(2, '0')}T02:00:00.000Z`,
    }),
  );
  const tracker = runsApi([...runs(), ...older]);
  const api = workflowsApi(undefined, tracker);
  connectionsApi(workflowConnections(), PAIRS);
  tablesApi(tableRows());
  return { api, tracker };
}

describe("a workflow's page", { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  it('shows its details and its tasks in order, each said in one line', async () => {
    fakes();
    renderWorkflows(`/workflows/${HOURLY}/show`);
    const tasks = await screen.findByRole('table', { name: 'Tasks' });
    const rows = within(tasks).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '1Refresh martsSQL from the repositorysql/refresh.sql at main, on The destination',
      '2Tell the teamNotificationMarts refreshed → Slack, data@acme.test',
    ]);
    expect(screen.getByText('Databricks job')).toBeInTheDocument();
    expect(screen.getByText('4242')).toBeInTheDocument();
    expect(screen.getByText('Retries: 0 (backoff 60 s) · Timeout: 60 min · Concurrent runs: 1')).toBeInTheDocument();
    expect(screen.getByText('In the console')).toBeInTheDocument();
  });

  it("lists the workflow's runs (GET /jobRunTracker/{workflowId}/…), filtered by status and dates through the filter route", async () => {
    const user = userEvent.setup();
    const { tracker } = fakes(12);
    const view = renderWorkflows(`/workflows/${NIGHTLY}/show`);
    const section = await screen.findByRole('region', { name: 'Runs' });
    const table = await within(section).findByRole('table', { name: 'Runs' });
    expect(tracker.seen(/^GET \/jobRunTracker\/f/)).toEqual([`GET /jobRunTracker/${NIGHTLY}/0/10`]);
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    const failed = table.querySelector(`[data-run="${RUN_FAILED}"]`) as HTMLElement;
    expect(failed).toHaveTextContent('Failed');
    expect(failed).toHaveTextContent('Schedule');
    expect(failed).toHaveTextContent('The schedule');
    expect(failed).toHaveTextContent('4 min 05 s');
    expect(within(section).getByText('1–10 of 13')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(tracker.seen(/^GET \/jobRunTracker\/f/)).toContain(`GET /jobRunTracker/${NIGHTLY}/10/10`));

    await user.click(within(section).getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    await user.click(await screen.findByRole('option', { name: 'Timed out' }));
    await user.keyboard('{Escape}');
    await waitFor(() =>
      expect(
        tracker.calls
          .filter((call) => call.method === 'POST')
          .map((call) => [call.path, call.body])
          .at(-1),
      ).toEqual([`/jobRunTracker/filters?workflowId=${NIGHTLY}&offset=0&limit=10`, { status: ['failed', 'timed_out'] }]),
    );
    await user.type(within(section).getByLabelText('Queued from'), '2026-11-21');
    await waitFor(() =>
      expect(tracker.calls.filter((call) => call.method === 'POST').at(-1)?.body).toEqual({
        status: ['failed', 'timed_out'],
        startDate: '2026-11-21',
      }),
    );
    await waitFor(() => expect(within(section).getAllByRole('row')).toHaveLength(2));

    await user.click(within(section).getByRole('link', { name: new Date('2026-11-21T02:00:00.000Z').toLocaleString() }));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_FAILED}/show`));
  });

  it('Check asks POST /workflow/configure/{id} and lists the problems per task', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    api.check = {
      ok: false,
      problems: [
        { task: 'task-2', message: 'The table "orders" has no active rule' },
        { task: null, message: 'The source "Warehouse" does not answer: connection refused' },
        { task: 'task-1', message: 'The source has no table sales.orders' },
      ],
    };
    renderWorkflows(`/workflows/${NIGHTLY}/show`);
    await user.click(await screen.findByRole('button', { name: 'Check' }));
    const dialog = await screen.findByRole('dialog', { name: 'Check of Nightly orders' });
    expect(api.calls.filter((call) => call.path.startsWith('/workflow/configure')).map((call) => `${call.method} ${call.path}`)).toEqual([
      `POST /workflow/configure/${NIGHTLY}`,
    ]);
    expect(await within(dialog).findByText('3 problems found')).toBeInTheDocument();
    const groups = [...dialog.querySelectorAll('section')].map((group) => [
      group.getAttribute('aria-label'),
      [...group.querySelectorAll('li')].map((item) => item.textContent),
    ]);
    expect(groups).toEqual([
      ['The workflow', ['The source "Warehouse" does not answer: connection refused']],
      ['Copy orders', ['The source has no table sales.orders']],
      ['Check orders', ['The table "orders" has no active rule']],
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    api.check = { ok: true, problems: [] };
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await within(await screen.findByRole('dialog')).findByText('Everything the workflow names answers.')).toBeInTheDocument();
  });
});
