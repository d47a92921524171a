import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, exactly, FILES, SLACK } from './connectionsApi';
import { CONNECTIONS_TIMEOUT_MS, mockPolicies, plainUser, renderConnections } from './render';
import { listToolbarShown, rowOf } from '../../listPage';

describe('the connections list', { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('lists GET /connections/0/10 with the type, workspace, roles, the last test as a chip, and the cards', async () => {
    const api = connectionsApi();
    renderConnections('/connections');
    await screen.findByText('Warehouse');
    expect(api.seen(/^GET \/connections\/0\/10/)).toEqual(['GET /connections/0/10']);

    const warehouse = rowOf('Warehouse');
    expect(within(warehouse).getByText('PostgreSQL')).toBeInTheDocument();
    expect(within(warehouse).getByText('Finance')).toBeInTheDocument();
    expect(within(warehouse).getByText('OK · 42 ms')).toBeInTheDocument();
    expect(within(rowOf('Alerts')).getByText('Never tested')).toBeInTheDocument();

    // Failing: the source's message on hover.
    const failing = within(rowOf('Lake')).getByText('Failing');
    await userEvent.hover(failing);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('The AWS Access Key Id you provided does not exist in our records.');

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Connections').closest('[data-card]')).toHaveTextContent('4');
    expect(within(cards).getByText('Failing').closest('[data-card]')).toHaveTextContent('1');
    // Hidden until chosen in the columns button.
    expect(screen.queryByRole('columnheader', { name: 'Pairs' })).toBeNull();
  });

  it('a search alone goes to the search route; any other filter to the filter route with exactly its fields', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections('/connections');
    await screen.findByText('Warehouse');
    await listToolbarShown();

    await user.type(screen.getByPlaceholderText('Search connections'), 'lak');
    await waitFor(() => expect(api.seen(/^GET \/connections\/search/)).toEqual(['GET /connections/search/0/10?searchText=lak']));
    await waitFor(() => expect(screen.queryByText('Warehouse')).toBeNull());
    expect(screen.getByText('Lake')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'S3-compatible storage' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(api.bodiesOf(/^POST \/connections\/filter\/0\/10$/)).toEqual([{ search: 'lak', type: ['s3'] }]));

    await user.click(screen.getByRole('combobox', { name: 'Destination' }));
    await user.click(await screen.findByRole('option', { name: 'Destinations' }));
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/connections\/filter/).at(-1)).toEqual({ search: 'lak', type: ['s3'], destination: 'true' }),
    );
    expect(await screen.findByText('Lake')).toBeInTheDocument();
  });

  it('shows the integrations: Slack active, code repositories not configured with a link to connect one', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    const view = renderConnections('/connections');
    const card = await screen.findByRole('region', { name: 'Integrations' });
    await waitFor(() => expect(within(card).getByText('Slack').closest('[data-integration]')).toHaveTextContent('Active1 connection'));
    const code = within(card).getByText('Code repositories').closest('[data-integration]') as HTMLElement;
    expect(code).toHaveTextContent('Not configured');
    expect(api.seen(/integration/)).toEqual(['GET /connection/slack/integration', 'GET /connection/bitbucket/integration']);

    await user.click(within(code).getByRole('link', { name: 'Connect Bitbucket' }));
    await waitFor(() => expect(view.location().pathname).toBe('/connections/create'));
    // The create form opens on the Bitbucket settings.
    expect(await screen.findByRole('radio', { name: /^Bitbucket/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('textbox', { name: 'Workspace' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Atlassian account email' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^API token/)).toHaveAttribute('type', 'password');
  });

  it('tests a connection from its row: POST /connection/{id}/configure, the result in a dialog, the chip follows', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    api.tests[SLACK] = { ok: false, latencyMs: null, detail: null, message: 'invalid_token', testedAt: '2026-11-22T09:00:00.000Z' };
    renderConnections('/connections');
    await screen.findByText('Alerts');
    await user.click(await within(rowOf('Alerts')).findByRole('button', { name: 'Test connection Alerts' }));

    const dialog = await screen.findByRole('dialog', { name: 'Test of Alerts' });
    expect(await within(dialog).findByText('The connection failed')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('invalid_token');
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
      expect.objectContaining({ path: `/connection/${SLACK}/configure`, body: {} }),
    ]);
    // The row was not opened by the click.
    expect(api.seen(exactly(`GET /connection/${SLACK}`))).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('invalid_token');
    await waitFor(() => expect(within(rowOf('Alerts')).getByText('Failing')).toBeInTheDocument());
  });

  it('the activation switch sends PUT /connections/activate/{id} with isActive', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections('/connections');
    await screen.findByText('Exports');
    await user.click(await screen.findByRole('switch', { name: 'Active: Exports' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
        expect.objectContaining({ path: `/connections/activate/${FILES}`, body: { isActive: true } }),
      ]),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Connection "Exports" activated');
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Active: Exports' })).toBeChecked());
  });

  it('someone who may only read sees no test, no activation and no create', async () => {
    mockPolicies([{ resource: 'connections', actions: ['read'] }]);
    connectionsApi();
    renderConnections('/connections', plainUser);
    await screen.findByText('Warehouse');
    // The integrations card needs the read policy: once it shows, the policies are in.
    const card = await screen.findByRole('region', { name: 'Integrations' });
    expect(within(card).getByText('Code repositories').closest('[data-integration]')).toHaveTextContent('Not configured');
    expect(await screen.findByRole('switch', { name: 'Active: Warehouse' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: /^Test connection/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Connect Bitbucket' })).toBeNull();
  });
});
