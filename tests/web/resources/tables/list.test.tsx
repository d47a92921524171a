import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, exactly, FINANCE, PG, S3 } from '../connections/connectionsApi';
import { tablesApi } from './tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './render';
import { listToolbarShown, rowOf } from '../../listPage';

describe('the tables list', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('lists GET /tables/0/10: endpoint, connection, columns described, rules, the last run leading to the results', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    const view = renderTables('/tables');
    await screen.findByText('orders');
    expect(api.seen(/^GET \/tables\/0\/10/)).toEqual(['GET /tables/0/10']);
    const orders = rowOf('orders');
    expect(orders).toHaveTextContent('sales.orders');
    expect(within(orders).getByRole('link', { name: 'Warehouse' })).toBeInTheDocument();
    expect(orders).toHaveTextContent('Finance');
    expect(orders).toHaveTextContent('12 / 20');
    expect(within(rowOf('customers')).getByText('Never run')).toBeInTheDocument();
    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Described (%)').closest('[data-card]')).toHaveTextContent('71');

    await user.click(within(orders).getByRole('link', { name: 'Last run of orders: see the results' }));
    await waitFor(() => expect(view.location().pathname).toBe('/tables/t-1/show/quality'));
    expect(await screen.findByText('Email present')).toBeInTheDocument();
  });

  it('a search alone uses the search route; the filters post exactly their fields', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables');
    await screen.findByText('orders');
    await listToolbarShown();
    await user.type(screen.getByPlaceholderText('Search tables'), 'cust');
    await waitFor(() => expect(api.seen(/^GET \/tables\/search/)).toEqual(['GET /tables/search/0/10?searchText=cust']));
    await waitFor(() => expect(screen.queryByText('orders')).toBeNull());

    await user.clear(screen.getByPlaceholderText('Search tables'));
    await user.click(screen.getByRole('combobox', { name: 'Source type' }));
    await user.click(await screen.findByRole('option', { name: 'Folder of files' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(api.bodiesOf(/^POST \/tables\/filters\/0\/10$/).at(-1)).toEqual({ source: ['files'] }));
    await waitFor(() => expect(screen.queryByText('orders')).toBeNull());
    expect(screen.getAllByText('exports.csv')[0].closest('tr')).toHaveTextContent('Exports');
  });

  it('the activation switch sends POST /table/activate/{id} with isActive', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables');
    await screen.findByText('orders');
    await listToolbarShown();
    await user.click(screen.getByRole('switch', { name: 'Active: orders' }));
    await waitFor(() =>
      expect(
        api.calls.filter((call) => call.path.startsWith('/table/activate')).map((call) => [call.method, call.path, call.body]),
      ).toEqual([['POST', '/table/activate/t-1', { isActive: false }]]),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Table "orders" deactivated');
  });
});

describe('editing a table', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('sends PUT /table/{id} with the fields that changed, then shows the table', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    const view = renderTables('/tables/t-1');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveValue('orders'));
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Every order since 2019');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toEqual([{ description: 'Every order since 2019' }]));
    await waitFor(() => expect(view.location().pathname).toBe('/tables/t-1/show'));
    expect(await screen.findByRole('tab', { name: 'Dictionary' })).toBeInTheDocument();
  });
});

describe('registering a table', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('chooses a connection that holds tables, one of its endpoints (named after it), then POST /table', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    const connections = connectionsApi();
    const view = renderTables('/tables/create');
    await user.click(await screen.findByRole('combobox', { name: 'Connection' }));
    // Databases and folders of files; not Slack.
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toEqual(['Warehouse (PostgreSQL)', 'Lake (S3-compatible storage)', 'Exports (Folder of files, inactive)']);
    await user.click(screen.getByRole('option', { name: 'Warehouse (PostgreSQL)' }));

    await user.click(await screen.findByRole('combobox', { name: 'Endpoint' }));
    await user.type(screen.getByRole('combobox', { name: 'Endpoint' }), 'cust');
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'public / customers',
      'public / active_customers',
    ]);
    await user.click(screen.getByRole('option', { name: 'public / customers' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('customers'));
    await user.click(screen.getByRole('combobox', { name: 'Workspace' }));
    await user.click(await screen.findByRole('option', { name: 'Finance' }));
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/table$/)).toEqual([
        { connectionId: PG, endpoint: 'public.customers', name: 'customers', workspaceId: FINANCE },
      ]),
    );
    expect(connections.seen(exactly(`GET /connection/${PG}/endpoints`))).toEqual([`GET /connection/${PG}/endpoints`]);
    await waitFor(() => expect(view.location().pathname).toBe('/tables/t-new-3/show'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Table "customers" registered');
  });

  it('nothing is sent without a connection and an endpoint; a source that cannot be reached says why', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    const connections = connectionsApi();
    connections.endpoints[S3] = { status: 502, message: 'getaddrinfo ENOTFOUND s3.amazonaws.com' };
    renderTables('/tables/create');
    await user.click(await screen.findByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Lake (S3-compatible storage)' }));
    // Said in place, with a retry, and as the error alert (spec section 8).
    await waitFor(() =>
      expect(document.querySelector('.alert-bar.alert-danger')).toHaveTextContent('getaddrinfo ENOTFOUND s3.amazonaws.com'),
    );
    expect(screen.getAllByText('getaddrinfo ENOTFOUND s3.amazonaws.com')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await user.click(screen.getByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Warehouse (PostgreSQL)' }));
    const endpoint = await screen.findByRole('combobox', { name: 'Endpoint' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(endpoint.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')).toHaveTextContent('is required'),
    );
    expect(api.seen(/^POST/)).toEqual([]);
  });
});
