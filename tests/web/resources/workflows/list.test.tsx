import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, PG } from '../connections/connectionsApi';
import { NIGHTLY, RUN_FAILED, RUN_NEW, runsApi } from '../job-runs/runsApi';
import { tablesApi } from '../tables/tablesApi';
import { renderWorkflows, WORKFLOWS_TIMEOUT_MS } from './render';
import { PAIRS, tableRows, workflowConnections, workflowsApi } from './workflowsApi';
import { listToolbarShown, rowOf } from '../../listPage';

function fakes() {
  const runs = runsApi();
  const api = workflowsApi(undefined, runs);
  connectionsApi(workflowConnections(), PAIRS);
  tablesApi(tableRows());
  return { api, runs };
}

describe('the workflows list', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  it('lists GET /workflow/0/10: the pair, engine, schedule with its next run, the last run leading to it', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    const view = renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    expect(api.seen(/^GET \/workflow\/\d/)).toEqual(['GET /workflow/0/10']);
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(
      expect.arrayContaining(['Name', 'Source → destination', 'Engine', 'Schedule', 'Last run', 'Active', 'Created']),
    );

    const nightly = rowOf('Nightly orders');
    expect(nightly).toHaveTextContent('Warehouse → Lake');
    expect(nightly).toHaveTextContent('Local runner');
    expect(nightly).toHaveTextContent('0 2 * * *');
    expect(nightly).toHaveTextContent('Europe/Paris');
    expect(nightly).toHaveTextContent(`next ${new Date('2026-11-22T01:00:00.000Z').toLocaleString()}`);
    expect(await within(nightly).findByRole('switch', { name: 'Active: Nightly orders' })).toBeChecked();
    const hourly = rowOf('Hourly refresh');
    expect(hourly).toHaveTextContent('Databricks job');
    expect(hourly).toHaveTextContent('Not scheduled');
    expect(within(hourly).getByRole('switch', { name: 'Active: Hourly refresh' })).not.toBeChecked();

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Failed today').closest('[data-card]')).toHaveTextContent('1');

    await user.click(within(nightly).getByRole('link', { name: 'Last run of Nightly orders: open it' }));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_FAILED}/show`));
    expect(await screen.findByRole('region', { name: 'Copy orders' })).toBeInTheDocument();
  });

  it('a search alone uses the search route; the filters post exactly their fields to the filter route', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    await listToolbarShown();
    await user.type(screen.getByPlaceholderText('Search workflows'), 'hourly');
    await waitFor(() => expect(api.seen(/^GET \/workflow\/search/)).toEqual(['GET /workflow/search/0/10?searchText=hourly']));
    await waitFor(() => expect(screen.queryByText('Nightly orders')).toBeNull());

    await user.clear(screen.getByPlaceholderText('Search workflows'));
    await user.click(screen.getByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Warehouse' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(api.bodiesOf(/^POST \/workflow\/filter\/0\/10$/).at(-1)).toEqual({ connection: [PG] }));
    expect(await screen.findByText('Nightly orders')).toBeInTheDocument();
  });

  it('the activation switch sends POST /workflow/activate/{id} with isActive', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    await user.click(await screen.findByRole('switch', { name: 'Active: Nightly orders' }));
    await waitFor(() =>
      expect(
        api.calls.filter((call) => call.path.startsWith('/workflow/activate')).map((call) => [call.method, call.path, call.body]),
      ).toEqual([['POST', `/workflow/activate/${NIGHTLY}`, { isActive: false }]]),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Workflow "Nightly orders" deactivated');
  });

  it("Run in a row queues a run with the row's jobId, then opens the new run's page", async () => {
    const user = userEvent.setup();
    const { api, runs } = fakes();
    const view = renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders' }));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_NEW}/show`));
    expect(api.calls.filter((call) => call.path.startsWith('/workflow/run')).map((call) => [call.method, call.path, call.body])).toEqual([
      ['POST', `/workflow/run/${NIGHTLY}`, { jobId: NIGHTLY }],
    ]);
    expect(await screen.findByRole('alert')).toHaveTextContent('Workflow "Nightly orders" queued');
    const summary = await screen.findByRole('region', { name: 'Run' });
    expect(summary.querySelector('[data-status]')).toHaveTextContent('Queued');
    expect(runs.seen(new RegExp(`^GET /jobRunTracker/${RUN_NEW}$`)).length).toBeGreaterThan(0);
  });
});
