import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { alerts } from '../../../../providers/alerts';
import { apiKey, apiKeysApi, BOB, keys, NEW_SECRET } from './apikeysApi';
import { APIKEYS_TIMEOUT_MS, bob, mockPolicies, renderApiKeys } from './render';

const ALL = [{ resource: 'apikeys', actions: ['read', 'create', 'update', 'delete'] }];

async function form() {
  return screen.findByRole('textbox', { name: 'Name' });
}

describe('creating an API key', { timeout: APIKEYS_TIMEOUT_MS }, () => {
  afterEach(() => alerts.clear());

  it('sends POST /apikey, shows the secret once with a copy button, then opens the key without it', async () => {
    const user = userEvent.setup();
    const api = apiKeysApi();
    const view = renderApiKeys('/apikeys/create');
    await user.type(await form(), '  Nightly export ');
    await user.click(screen.getByRole('combobox', { name: 'Access user' }));
    await user.click(await screen.findByRole('option', { name: 'Bob Builder (bob@acme.test)' }));
    await user.type(screen.getByLabelText('Expires'), '2031-06-30');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(api.seen(/^POST/)).toEqual(['POST /apikey']);
    expect(api.bodiesOf(/^POST \/apikey$/)).toEqual([{ name: 'Nightly export', accessUserId: BOB, expiresAt: '2031-06-30T00:00:00.000Z' }]);
    expect(within(dialog).getByRole('textbox', { name: 'API key' })).toHaveValue(NEW_SECRET);
    expect(dialog).toHaveTextContent('You will not see it again');
    expect(dialog).toHaveTextContent('x-api-key');

    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await within(dialog).findByText('Copied to the clipboard')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(NEW_SECRET);
    // Still on the create page while the secret is shown: the key's page waits for the user.
    expect(view.location().pathname).toBe('/apikeys/create');

    await user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(view.location().pathname).toBe('/apikeys/k-new-3/show'));
    expect(await screen.findByText('dok_NeWkEy123456…')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // Gone for good: nowhere on the page, and the key's own call does not answer it.
    expect(screen.queryByDisplayValue(NEW_SECRET)).toBeNull();
    expect(document.body.textContent).not.toContain(NEW_SECRET);
    expect(api.seen(/^GET \/apikey\/k-new-3/)).not.toEqual([]);
    expect(screen.getByRole('alert')).toHaveTextContent('API key "Nightly export" created');
  });

  it('blocks an empty name and a past expiry before anything is sent', async () => {
    const user = userEvent.setup();
    const api = apiKeysApi();
    renderApiKeys('/apikeys/create');
    // Blanks only: the shared rule trims them away.
    await user.type(await form(), '   ');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Old');
    await user.type(screen.getByLabelText('Expires'), '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be in the future')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a server refusal shows its message on the field and no secret dialog', async () => {
    const user = userEvent.setup();
    const api = apiKeysApi();
    api.failWith(/^POST \/apikey$/, 400, 'accessUserId: no active user of the company has this id');
    renderApiKeys('/apikeys/create');
    await user.type(await form(), 'Nightly');
    await user.click(screen.getByRole('combobox', { name: 'Access user' }));
    await user.click(await screen.findByRole('option', { name: 'Bob Builder (bob@acme.test)' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('accessUserId: no active user of the company has this id');
    expect(await screen.findByText('no active user of the company has this id')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.rows).toHaveLength(3);
  });

  it('someone who is not an admin makes keys that act as themselves: no access user to choose', async () => {
    const user = userEvent.setup();
    mockPolicies(ALL);
    const api = apiKeysApi();
    renderApiKeys('/apikeys/create', bob);
    await user.type(await form(), 'My script');
    expect(screen.queryByRole('combobox', { name: 'Access user' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(api.bodiesOf(/^POST \/apikey$/)).toEqual([{ name: 'My script' }]);
    expect(api.seen(/users\/active/)).toEqual([]);
  });
});

describe('editing an API key', { timeout: APIKEYS_TIMEOUT_MS }, () => {
  it('renames an expired key (its expiry left alone) with PUT /apikey/{id} and the changed field only', async () => {
    const user = userEvent.setup();
    const api = apiKeysApi([apiKey({ id: 'k-late', name: 'Late', expiresAt: '2025-01-01T00:00:00.000Z' })]);
    const view = renderApiKeys('/apikeys/k-late');
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveValue('Late'));
    await user.clear(name);
    await user.type(name, 'Late import');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /apikey/k-late']));
    expect(api.bodiesOf(/^PUT/)).toEqual([{ name: 'Late import' }]);
    await waitFor(() => expect(view.location().pathname).toBe('/apikeys/k-late/show'));
  });

  it('a new expiry must be in the future; clearing it sends null (never expires)', async () => {
    const user = userEvent.setup();
    const api = apiKeysApi(keys());
    renderApiKeys('/apikeys/k-report');
    const expires = await screen.findByLabelText('Expires');
    await waitFor(() => expect(expires).toHaveValue('2031-01-31'));
    await user.clear(expires);
    await user.type(expires, '2020-05-05');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be in the future')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual([]);
    await user.clear(expires);
    // A date input hands its emptied value to the form when it loses the focus.
    await user.tab();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/apikey\/k-report/)).toEqual([{ expiresAt: null }]));
  });

  it('a deleted key cannot be edited', async () => {
    apiKeysApi();
    renderApiKeys('/apikeys/k-old');
    expect(await screen.findByText('This key is deleted: it no longer works and cannot be changed.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).toBeNull();
  });
});
