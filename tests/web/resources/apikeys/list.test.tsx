import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADA, apiKeysApi, BOB } from './apikeysApi';
import { APIKEYS_TIMEOUT_MS, renderApiKeys } from './render';
import { headers, loadedTable, rowOf } from '../../listPage';

const FILTER = /^POST \/apikey\/filter\//;

describe('the API keys list', { timeout: APIKEYS_TIMEOUT_MS }, () => {
  it("calls GET /apikeys/0/10 and shows the server's keys with their columns, cards above", async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    const table = await loadedTable('CI pipeline');
    expect(headers(table)).toEqual(['Name', 'Key', 'Access user', 'Created by', 'Active', 'Expires', 'Last used', 'Operations', 'Created']);
    const ci = rowOf('CI pipeline');
    expect(ci).toHaveTextContent('dok_CiPipe123456…');
    expect(within(ci).getByRole('switch', { name: 'Active: CI pipeline' })).toBeChecked();
    // The operations column counts the grants.
    expect(
      within(ci)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toContain('2');
    expect(ci).toHaveTextContent('Never');
    const report = rowOf('Reporting');
    expect(report).toHaveTextContent('Bob Builder');
    expect(within(report).getByRole('switch', { name: 'Active: Reporting' })).not.toBeChecked();
    // Deleted keys are left out of the plain list.
    expect(screen.queryByText('Old import')).toBeNull();

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('API keys').closest('[data-card]')).toHaveTextContent('2');
    expect(within(cards).getByText('Deleted').closest('[data-card]')).toHaveTextContent('1');
    expect(within(cards).getByText('Used in the last 7 days')).toBeInTheDocument();

    expect(api.seen(/^GET \/apikeys\//)).toEqual(['GET /apikeys/0/10']);
    expect(api.seen(FILTER)).toEqual([]);
  });

  it('the access user filter sends { accessUser: [ids] } to POST /apikey/filter/0/10', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(screen.getByRole('combobox', { name: 'Access user' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bob Builder' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ accessUser: [BOB] }));
    expect(new Set(api.seen(FILTER))).toEqual(new Set(['POST /apikey/filter/0/10']));
    await waitFor(() => expect(screen.queryByText('CI pipeline', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Reporting', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('the creator filter sends { createduser: [ids] }', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(screen.getByRole('combobox', { name: 'Created by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Ada Admin' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ createduser: [ADA] }));
  });

  it("the status filter sends { isActive: 'false' }", async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ isActive: 'false' }));
    await waitFor(() => expect(screen.queryByText('CI pipeline', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Reporting', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it("the deleted filter sends { isDeleted: 'true' } and shows the deleted keys", async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(screen.getByRole('combobox', { name: 'Deleted' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deleted' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ isDeleted: 'true' }));
    expect(await screen.findByText('Old import', { selector: 'td, td *' })).toBeInTheDocument();
    expect(screen.queryByText('CI pipeline', { selector: 'td, td *' })).toBeNull();
  });

  it('the dates send startDate and endDate, the search sends search', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-08');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-08' }));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-30');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-08', endDate: '2026-11-30' }));
    await waitFor(() => expect(screen.queryByText('Reporting', { selector: 'td, td *' })).toBeNull());
    await userEvent.type(screen.getByPlaceholderText('Search keys'), 'cipipe');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-08', endDate: '2026-11-30', search: 'cipipe' }));
    expect(new Set(api.seen(FILTER))).toEqual(new Set(['POST /apikey/filter/0/10']));
    expect(screen.getByText('CI pipeline', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('the switch deactivates a key with PUT /apikey/deactivate/{id}', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(within(rowOf('CI pipeline')).getByRole('switch', { name: 'Active: CI pipeline' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /apikey/deactivate/k-ci']));
    expect(await screen.findByText('API key "CI pipeline" deactivated')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('CI pipeline')).getByRole('switch', { name: 'Active: CI pipeline' })).not.toBeChecked());
  });

  it('bulk: activates, deactivates and deletes the selection, one call per key', async () => {
    const api = apiKeysApi();
    renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    await userEvent.click(within(rowOf('CI pipeline')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Reporting')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Activate' }));
    // The key already active needs no call: it counts as done.
    await waitFor(() => expect(api.seen(/^PUT/).sort()).toEqual(['PUT /apikey/activate/k-report']));
    await waitFor(() => expect(within(rowOf('Reporting')).getByRole('switch', { name: 'Active: Reporting' })).toBeChecked());

    await userEvent.click(within(rowOf('Reporting')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(api.seen(/^PUT \/apikey\/deactivate/)).toEqual(['PUT /apikey/deactivate/k-report']));
    await waitFor(() => expect(within(rowOf('Reporting')).getByRole('switch', { name: 'Active: Reporting' })).not.toBeChecked());

    await userEvent.click(within(rowOf('CI pipeline')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('Reporting')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Delete 2 records?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.seen(/^DELETE/).sort()).toEqual(['DELETE /apikey/k-ci', 'DELETE /apikey/k-report']));
    await waitFor(() => expect(screen.queryByText('CI pipeline', { selector: 'td, td *' })).toBeNull());
    expect(api.rows.filter((row) => !row.isDeleted)).toEqual([]);
  });

  it('a row opens the key, and the toolbar leads to the API explorer', async () => {
    apiKeysApi();
    const view = renderApiKeys('/apikeys');
    await loadedTable('CI pipeline');
    expect(screen.getByRole('link', { name: 'API explorer' })).toHaveAttribute('href', '/api-explorer');
    await userEvent.click(screen.getByText('CI pipeline', { selector: 'td, td *' }));
    await waitFor(() => expect(view.location().pathname).toBe('/apikeys/k-ci/show'));
  });
});
