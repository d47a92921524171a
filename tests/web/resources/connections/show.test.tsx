import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API, BACKUP, connectionsApi, exactly, FILES, PG, S3, SLACK } from './connectionsApi';
import { CONNECTIONS_TIMEOUT_MS, renderConnections } from './render';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function endpointsPanel(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'What it reaches' });
}

function groupsOf(panel: HTMLElement): string[] {
  return [...panel.querySelectorAll('tbody[data-group]')].map((group) => group.getAttribute('data-group')!);
}

function endpointsOf(panel: HTMLElement): string[] {
  return [...panel.querySelectorAll('tr[data-endpoint]')].map((row) => row.getAttribute('data-endpoint')!);
}

describe("a connection's page", { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('shows its settings without secrets, and tests it: OK with the latency and what the source says', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections(`/connections/${PG}/show`);
    const settings = await screen.findByRole('region', { name: 'Settings' });
    expect(within(settings).getByText('Host').closest('tr')).toHaveTextContent('db.acme.test');
    expect(within(settings).getByText('TLS').closest('tr')).toHaveTextContent('Required (any certificate)');
    expect(within(settings).getByText('Password').closest('tr')).toHaveTextContent('Set');

    await user.click(await screen.findByRole('button', { name: 'Test connection Warehouse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Test of Warehouse' });
    expect(await within(dialog).findByText('OK in 42 ms')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('PostgreSQL 16.4');
    expect(api.bodiesOf(exactly(`POST /connection/${PG}/configure`))).toEqual([{}]);
  });

  it('lists what it reaches by group, filtered by text', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections(`/connections/${PG}/show`);
    const panel = await endpointsPanel();
    await waitFor(() => expect(groupsOf(panel)).toEqual(['public', 'sales']));
    expect(endpointsOf(panel)).toEqual(['public.active_customers', 'public.customers', 'sales.orders', 'sales.refunds']);
    const orders = panel.querySelector('tr[data-endpoint="sales.orders"]') as HTMLElement;
    expect(orders).toHaveTextContent('orders');
    expect(orders).toHaveTextContent('120,000');
    expect(api.seen(/endpoints/)).toEqual([`GET /connection/${PG}/endpoints`]);

    await user.type(within(panel).getByRole('textbox', { name: 'Filter endpoints' }), 'cust');
    expect(groupsOf(panel)).toEqual(['public']);
    expect(endpointsOf(panel)).toEqual(['public.active_customers', 'public.customers']);
    await user.type(within(panel).getByRole('textbox', { name: 'Filter endpoints' }), 'zzz');
    expect(within(panel).getByText('No endpoint matches.')).toBeInTheDocument();
  });

  it('an unreachable source shows its own message with a retry that calls again', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    api.endpoints[PG] = { status: 502, message: 'connect ECONNREFUSED 10.0.0.5:5432' };
    renderConnections(`/connections/${PG}/show`);
    const panel = await endpointsPanel();
    expect(await within(panel).findByText('connect ECONNREFUSED 10.0.0.5:5432')).toBeInTheDocument();

    api.endpoints[PG] = [{ id: 'public.customers', name: 'customers', kind: 'table', group: 'public' }];
    await user.click(within(panel).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(endpointsOf(panel)).toEqual(['public.customers']));
    expect(api.seen(/endpoints/)).toEqual([`GET /connection/${PG}/endpoints`, `GET /connection/${PG}/endpoints`]);
  });

  it('registers a table from an endpoint: the registration opens with the connection and the endpoint filled, then POST /table', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    const posted: unknown[] = [];
    server.use(
      http.post(`${API}/table`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push(body);
        return HttpResponse.json({ message: 'Table "orders" registered', data: { id: 't-new', ...body } }, { status: 201 });
      }),
      http.get(`${API}/table/t-new`, () =>
        HttpResponse.json({
          message: 'Table',
          data: {
            id: 't-new',
            name: 'orders',
            endpoint: 'sales.orders',
            connectionId: PG,
            connectionName: 'Warehouse',
            isActive: true,
            columnCount: 3,
            describedCount: 0,
            ruleCount: 0,
            lastRun: null,
          },
        }),
      ),
    );
    const view = renderConnections(`/connections/${PG}/show`);
    const panel = await endpointsPanel();
    await user.click(await within(panel).findByRole('link', { name: 'Register table orders' }));

    await waitFor(() => expect(view.location().pathname).toBe('/tables/create'));
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveValue('orders'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Connection' })).toHaveValue('Warehouse (PostgreSQL)'));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('sales / orders'));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(posted).toEqual([{ connectionId: PG, endpoint: 'sales.orders', name: 'orders' }]));
    await waitFor(() => expect(view.location().pathname).toBe('/tables/t-new/show'));
    expect(api.seen(/^POST/)).toEqual([]);
  });
});

describe("a connection's pairs", { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  async function pairsPanel(): Promise<HTMLElement> {
    const panel = await screen.findByRole('region', { name: 'Source/destination pairs' });
    await within(panel).findByRole('table');
    return panel;
  }

  it('adds a pair with a new id: PUT /source/destination/{uuid} with the name, the source and the destination', async () => {
    const user = userEvent.setup();
    const api = connectionsApi(undefined, []);
    api.rows.push({ ...api.rows[1], id: BACKUP, name: 'Backup', isDestination: true });
    renderConnections(`/connections/${PG}/show`);
    const panel = await screen.findByRole('region', { name: 'Source/destination pairs' });
    expect(await within(panel).findByText('This connection is in no pair yet.')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Add pair' }));
    const dialog = await screen.findByRole('dialog', { name: 'New source/destination pair' });
    // The warehouse is both: as the source, the others that are destinations are offered (not itself, not the sources-only folder).
    await user.click(within(dialog).getByRole('combobox', { name: /^Destination/ }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Lake (S3-compatible storage)', 'Backup (S3-compatible storage)']);
    await user.click(screen.getByRole('option', { name: 'Backup (S3-compatible storage)' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Warehouse → Backup');

    // As the destination, the sources are offered instead.
    await user.click(within(dialog).getByRole('radio', { name: 'Destination' }));
    await user.click(within(dialog).getByRole('combobox', { name: /^Source/ }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Exports (Folder of files)']);
    await user.click(screen.getByRole('option', { name: 'Exports (Folder of files)' }));
    expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Exports → Warehouse');
    await user.click(within(dialog).getByRole('button', { name: 'Add pair' }));

    await waitFor(() => expect(api.seen(/^PUT/)).toHaveLength(1));
    const [call] = api.calls.filter((candidate) => candidate.method === 'PUT');
    expect(call.path.replace('/source/destination/', '')).toMatch(UUID);
    expect(call.body).toEqual({ name: 'Exports → Warehouse', sourceId: FILES, destinationId: PG });
    expect(await screen.findByRole('alert')).toHaveTextContent('Pair "Exports → Warehouse" created');
    expect(await within(panel).findByText('Exports → Warehouse')).toBeInTheDocument();
  });

  it('a new pair asks for the other connection and a name; a typed name no longer follows the chosen connection', async () => {
    const user = userEvent.setup();
    const api = connectionsApi(undefined, []);
    api.rows.push({ ...api.rows[1], id: BACKUP, name: 'Backup', isDestination: true });
    renderConnections(`/connections/${PG}/show`);
    const panel = await screen.findByRole('region', { name: 'Source/destination pairs' });
    await within(panel).findByText('This connection is in no pair yet.');
    await user.click(within(panel).getByRole('button', { name: 'Add pair' }));
    const dialog = await screen.findByRole('dialog', { name: 'New source/destination pair' });
    await user.click(within(dialog).getByRole('button', { name: 'Add pair' }));
    expect(await within(dialog).findByText('Choose the other connection')).toBeInTheDocument();
    expect(within(dialog).getByText('is required')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: /^Destination/ }));
    await user.click(await screen.findByRole('option', { name: 'Lake (S3-compatible storage)' }));
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    expect(name).toHaveValue('Warehouse → Lake');
    await user.clear(name);
    await user.type(name, 'Nightly backup');
    await user.click(within(dialog).getByRole('combobox', { name: /^Destination/ }));
    await user.click(await screen.findByRole('option', { name: 'Backup (S3-compatible storage)' }));
    expect(name).toHaveValue('Nightly backup');
    expect(api.seen(/^PUT/)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Add pair' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT/)).toEqual([{ name: 'Nightly backup', sourceId: PG, destinationId: BACKUP }]));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('renames a pair and switches it off with PUT /source/destination/{id}', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections(`/connections/${PG}/show`);
    const panel = await pairsPanel();
    await user.click(within(panel).getByRole('button', { name: 'Rename Warehouse to lake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Warehouse to lake' });
    const name = within(dialog).getByRole('textbox', { name: /^Name/ });
    await user.clear(name);
    await user.type(name, 'Nightly copy');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
        ['/source/destination/p-1', { name: 'Nightly copy', sourceId: PG, destinationId: S3 }],
      ]),
    );
    expect(await within(panel).findByText('Nightly copy')).toBeInTheDocument();

    await user.click(within(panel).getByRole('switch', { name: 'Active: Nightly copy' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/source\/destination\/p-1$/)).toHaveLength(2));
    expect(api.bodiesOf(/^PUT \/source\/destination\/p-1$/)[1]).toEqual({ sourceId: PG, destinationId: S3, isActive: false });
    await waitFor(() => expect(within(panel).getByRole('switch', { name: 'Active: Nightly copy' })).not.toBeChecked());
  });

  it('deletes a pair after a confirmation: DELETE /source/destination/{id}', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections(`/connections/${PG}/show`);
    const panel = await pairsPanel();
    await user.click(within(panel).getByRole('button', { name: 'Delete Warehouse to lake' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the pair Warehouse to lake?' });
    expect(api.seen(/^DELETE/)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.seen(/^DELETE/)).toEqual(['DELETE /source/destination/p-1']));
    expect(await within(panel).findByText('This connection is in no pair yet.')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Pair "Warehouse to lake" deleted');
  });

  it('chat and code connections have no pairs panel', async () => {
    connectionsApi();
    renderConnections(`/connections/${SLACK}/show`);
    await screen.findByRole('region', { name: 'What it reaches' });
    expect(screen.queryByRole('region', { name: 'Source/destination pairs' })).toBeNull();
  });
});

describe('the active pairs page', { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('lists GET /active/source/destination, each connection leading to its page', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    api.pairs.push({ ...api.pairs[0], id: 'p-2', name: 'Off pair', isActive: false });
    const view = renderConnections('/source-destinations');
    expect(await screen.findByText('Warehouse to lake')).toBeInTheDocument();
    expect(screen.queryByText('Off pair')).toBeNull();
    expect(api.seen(/active\/source/)).toEqual(['GET /active/source/destination']);
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Lake' }));
    await waitFor(() => expect(view.location().pathname).toBe(`/connections/${S3}/show`));
  });
});
