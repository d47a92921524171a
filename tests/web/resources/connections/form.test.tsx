import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, exactly, MARKETING, PG } from './connectionsApi';
import { CONNECTIONS_TIMEOUT_MS, renderConnections } from './render';

type User = ReturnType<typeof userEvent.setup>;

async function chooseType(user: User, label: RegExp) {
  await user.click(await screen.findByRole('radio', { name: label }));
}

async function choose(user: User, combobox: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

/** The text of the input's helper line (its error, once there is one). */
function helperOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}

function labelOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('label')?.textContent ?? '';
}

describe('creating a connection', { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('PostgreSQL: the settings form from its declarations, defaults filled, checked before anything is sent, then POST /connections', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    const view = renderConnections('/connections/create');
    expect(await screen.findByText('Choose a type to see its settings.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
    await chooseType(user, /^PostgreSQL/);

    const host = screen.getByRole('textbox', { name: 'Host' });
    expect(labelOf(host)).toMatch(/Host\s*\*/);
    expect(host).toHaveAttribute('placeholder', 'db.example.com');
    expect(screen.getByRole('spinbutton', { name: 'Port' })).toHaveValue(5432);
    expect(screen.getByRole('combobox', { name: 'TLS' })).toHaveTextContent('Off');
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(labelOf(screen.getByLabelText('Password'))).not.toContain('*');
    expect(screen.getByRole('switch', { name: 'Source' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Destination' })).not.toBeChecked();

    await user.clear(screen.getByRole('spinbutton', { name: 'Port' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Port' }), '70000');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(screen.getByRole('spinbutton', { name: 'Port' }))).toBe('must be at most 65535'));
    expect(helperOf(screen.getByRole('textbox', { name: 'Name' }))).toBe('is required');
    expect(helperOf(host)).toBe('is required');
    expect(helperOf(screen.getByRole('textbox', { name: 'Database' }))).toBe('is required');
    expect(api.seen(/^POST/)).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Orders DB');
    await choose(user, 'Workspace', 'Marketing');
    await user.click(screen.getByRole('switch', { name: 'Destination' }));
    await user.type(host, 'db.example.com');
    await user.clear(screen.getByRole('spinbutton', { name: 'Port' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Port' }), '6432');
    await user.type(screen.getByRole('textbox', { name: 'Database' }), 'orders');
    await user.type(screen.getByRole('textbox', { name: 'User' }), 'reader');
    await user.type(screen.getByLabelText('Password'), 's3cret');
    await choose(user, 'TLS', 'Required, certificate verified');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /connections']));
    expect(api.bodiesOf(/^POST \/connections$/)).toEqual([
      {
        type: 'postgresql',
        name: 'Orders DB',
        workspaceId: MARKETING,
        isSource: true,
        isDestination: true,
        settings: { host: 'db.example.com', port: 6432, database: 'orders', user: 'reader', password: 's3cret', ssl: 'verify-full' },
      },
    ]);
    await waitFor(() => expect(view.location().pathname).toBe('/connections/c-new-4/show'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Connection "Orders DB" created');
  });

  it('Slack: settings shown by their `when`, no source/destination switches, only the applying settings sent', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections('/connections/create');
    await chooseType(user, /^Slack/);
    expect(screen.getByRole('combobox', { name: 'Send with' })).toHaveTextContent('Incoming webhook');
    expect(labelOf(screen.getByLabelText(/^Webhook URL/))).toMatch(/\*/);
    expect(screen.queryByLabelText(/^Bot token/)).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Default channel' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Source' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Destination' })).toBeNull();

    await choose(user, 'Send with', 'Bot token');
    expect(screen.queryByLabelText(/^Webhook URL/)).toBeNull();
    expect(screen.getByLabelText(/^Bot token/)).toHaveAttribute('type', 'password');
    expect(screen.getByRole('textbox', { name: 'Slack API URL' })).toHaveValue('https://slack.com/api');

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Alerts bot');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(screen.getByLabelText(/^Bot token/))).toBe('is required'));
    expect(api.seen(/^POST/)).toEqual([]);

    await user.type(screen.getByLabelText(/^Bot token/), 'xoxb-1');
    await user.type(screen.getByRole('textbox', { name: 'Default channel' }), '#data');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /connections']));
    expect(api.bodiesOf(/^POST \/connections$/)).toEqual([
      {
        type: 'slack',
        name: 'Alerts bot',
        settings: { mode: 'bot', botToken: 'xoxb-1', channel: '#data', apiUrl: 'https://slack.com/api' },
      },
    ]);
  });

  it('S3: a boolean setting as a switch, defaults sent, a blank optional setting left out', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections('/connections/create');
    await chooseType(user, /^S3-compatible storage/);
    expect(screen.getByRole('switch', { name: 'Path-style addresses' })).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Region' })).toHaveValue('us-east-1');
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Archive');
    await user.type(screen.getByRole('textbox', { name: 'Bucket' }), 'archive');
    await user.type(screen.getByRole('textbox', { name: 'Access key id' }), 'AKIA9');
    await user.type(screen.getByLabelText(/^Secret access key/), 'shh');
    await user.clear(screen.getByRole('textbox', { name: 'Endpoint' }));
    await user.type(screen.getByRole('textbox', { name: 'Endpoint' }), 'http://minio.local:9000');
    await user.click(screen.getByRole('switch', { name: 'Path-style addresses' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /connections']));
    expect(api.bodiesOf(/^POST \/connections$/)).toEqual([
      {
        type: 's3',
        name: 'Archive',
        isSource: true,
        isDestination: false,
        settings: {
          endpoint: 'http://minio.local:9000',
          region: 'us-east-1',
          bucket: 'archive',
          accessKeyId: 'AKIA9',
          secretAccessKey: 'shh',
          pathStyle: true,
        },
      },
    ]);
  });

  it("the server's 400 shows on the setting it names and as the alert", async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    api.failWith(/^POST \/connections$/, 400, 'settings.path: is not a folder the server can read');
    renderConnections('/connections/create');
    await chooseType(user, /^Folder of files/);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Drops');
    await user.type(screen.getByRole('textbox', { name: 'Folder' }), '/nowhere');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('settings.path: is not a folder the server can read');
    await waitFor(() => expect(helperOf(screen.getByRole('textbox', { name: 'Folder' }))).toBe('is not a folder the server can read'));
    expect(api.bodiesOf(/^POST \/connections$/)).toEqual([
      { type: 'files', name: 'Drops', isSource: true, isDestination: false, settings: { path: '/nowhere' } },
    ]);
  });

  it("a link naming the type opens the form on that type's settings", async () => {
    connectionsApi();
    renderConnections(`/connections/create?source=${encodeURIComponent(JSON.stringify({ type: 'embedded' }))}`);
    expect(await screen.findByRole('radio', { name: /^Embedded database/ })).toHaveAttribute('aria-checked', 'true');
    expect(await screen.findByRole('textbox', { name: 'Database name' })).toBeInTheDocument();
    expect(screen.getByText('Letters, digits, - and _; a database of that name is created when missing.')).toBeInTheDocument();
  });
});

describe('editing a connection', { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('a stored secret left blank is kept: PUT /connection/{id} sends the settings without it', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    const view = renderConnections(`/connections/${PG}`);
    const host = await screen.findByRole('textbox', { name: 'Host' });
    await waitFor(() => expect(host).toHaveValue('db.acme.test'));
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.getByText('A PostgreSQL database: its tables are sources and destinations.')).toBeInTheDocument();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(helperOf(password)).toBe('Stored — leave blank to keep');

    await user.clear(host);
    await user.type(host, 'db2.acme.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual([`PUT /connection/${PG}`]));
    expect(api.bodiesOf(/^PUT/)).toEqual([
      { settings: { host: 'db2.acme.test', port: 5432, database: 'dw', user: 'etl', ssl: 'require' } },
    ]);
    await waitFor(() => expect(view.location().pathname).toBe(`/connections/${PG}/show`));
  });

  it('a rename sends the name only; a typed secret travels with the settings', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections(`/connections/${PG}`);
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveValue('Warehouse'));
    await user.clear(name);
    await user.type(name, 'Warehouse (prod)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(exactly(`PUT /connection/${PG}`))).toEqual([{ name: 'Warehouse (prod)' }]));

    await user.click(await screen.findByRole('link', { name: 'Edit' }));
    await user.type(await screen.findByLabelText('Password'), 'n3w');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(exactly(`PUT /connection/${PG}`))).toHaveLength(2));
    expect(api.bodiesOf(exactly(`PUT /connection/${PG}`))[1]).toEqual({
      settings: { host: 'db.acme.test', port: 5432, database: 'dw', user: 'etl', password: 'n3w', ssl: 'require' },
    });
  });

  it('"Test connection" on the form sends unsaved settings to be tried before saving, and shows the failure in the source\'s words', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    api.tests[PG] = {
      ok: false,
      latencyMs: null,
      detail: null,
      message: 'getaddrinfo ENOTFOUND db9.acme.test',
      testedAt: '2026-11-22T09:00:00.000Z',
    };
    renderConnections(`/connections/${PG}`);
    const host = await screen.findByRole('textbox', { name: 'Host' });
    await waitFor(() => expect(host).toHaveValue('db.acme.test'));

    // Unchanged: the stored settings are tested.
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    const panel = screen.getByRole('region', { name: 'Connection test' });
    expect(await within(panel).findByText('The connection failed')).toBeInTheDocument();
    expect(api.bodiesOf(exactly(`POST /connection/${PG}/configure`))).toEqual([{}]);

    await user.clear(host);
    await user.type(host, 'db9.acme.test');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(api.bodiesOf(exactly(`POST /connection/${PG}/configure`))).toHaveLength(2));
    expect(api.bodiesOf(exactly(`POST /connection/${PG}/configure`))[1]).toEqual({
      settings: { host: 'db9.acme.test', port: 5432, database: 'dw', user: 'etl', ssl: 'require' },
    });
    expect(within(panel).getByText('getaddrinfo ENOTFOUND db9.acme.test')).toBeInTheDocument();
    // Nothing saved, and the form keeps the unsaved value.
    expect(api.seen(/^PUT/)).toEqual([]);
    expect(host).toHaveValue('db9.acme.test');

    // Settings the declarations refuse are not sent to be tested.
    await user.clear(screen.getByRole('spinbutton', { name: 'Port' }));
    await user.type(screen.getByRole('spinbutton', { name: 'Port' }), '0');
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(helperOf(screen.getByRole('spinbutton', { name: 'Port' }))).toBe('must be at least 1'));
    expect(api.bodiesOf(exactly(`POST /connection/${PG}/configure`))).toHaveLength(2);
  });
});
