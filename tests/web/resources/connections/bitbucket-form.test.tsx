import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connection, connections, connectionsApi, exactly } from './connectionsApi';
import { CONNECTIONS_TIMEOUT_MS, renderConnections } from './render';

/**
 * The Bitbucket form since Bitbucket took API tokens only: the workspace, the Atlassian account's
 * email and an API token, with where to make the token and the scope to give it; a connection
 * saved with a username and an app password opens on the same fields, to be given the new ones.
 */

const OLD_BITBUCKET = 'c0000000-0000-4000-8000-0000000000bb';

/** The text of the input's helper line (its error, once there is one). */
function helperOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}

const tokenInput = () => screen.getByLabelText(/^API token/);
const emailInput = () => screen.getByRole('textbox', { name: 'Atlassian account email' });

describe('the Bitbucket form', { timeout: CONNECTIONS_TIMEOUT_MS }, () => {
  it('asks for the workspace, the Atlassian account email and an API token, says which scope and where, and checks them', async () => {
    const user = userEvent.setup();
    const api = connectionsApi();
    renderConnections('/connections/create');
    await user.click(await screen.findByRole('radio', { name: /^Bitbucket/ }));

    expect(screen.getByRole('textbox', { name: 'Workspace' })).toBeInTheDocument();
    expect(emailInput()).toBeInTheDocument();
    expect(tokenInput()).toHaveAttribute('type', 'password');
    expect(helperOf(tokenInput())).toContain('read:repository:bitbucket');
    expect(helperOf(tokenInput())).toContain('id.atlassian.com/manage-profile/security/api-tokens');
    expect(screen.queryByRole('textbox', { name: 'Username' })).toBeNull();
    expect(screen.queryByLabelText(/^App password/)).toBeNull();

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Code');
    await user.type(screen.getByRole('textbox', { name: 'Workspace' }), 'acme');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(emailInput())).toBe('is required'));
    expect(helperOf(tokenInput())).toBe('is required');

    await user.type(emailInput(), 'ana');
    await user.type(tokenInput(), 'ATATT3x-token');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(emailInput())).toBe('must be an email address (the one of your Atlassian account)'));
    expect(api.seen(/^POST/)).toEqual([]);

    await user.type(emailInput(), '@acme.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /connections']));
    expect(api.bodiesOf(/^POST \/connections$/)).toEqual([
      {
        type: 'bitbucket',
        name: 'Code',
        settings: { workspace: 'acme', email: 'ana@acme.test', apiToken: 'ATATT3x-token', apiUrl: 'https://api.bitbucket.org/2.0' },
      },
    ]);
  });

  it('opens a connection saved with an app password on the new fields, and its edit sends them without the old ones', async () => {
    const user = userEvent.setup();
    const api = connectionsApi([
      ...connections(),
      connection({
        id: OLD_BITBUCKET,
        name: 'Old code',
        type: 'bitbucket',
        typeLabel: 'Bitbucket',
        category: 'code',
        settings: { workspace: 'acme', username: 'ana', apiUrl: 'https://api.bitbucket.org/2.0' },
        secretsSet: ['appPassword'],
      }),
    ]);
    renderConnections(`/connections/${OLD_BITBUCKET}`);
    const workspace = await screen.findByRole('textbox', { name: 'Workspace' });
    await waitFor(() => expect(workspace).toHaveValue('acme'));
    // The app password stored is no API token: the token is asked for, not "kept".
    expect(helperOf(tokenInput())).toContain('read:repository:bitbucket');
    expect(screen.queryByRole('textbox', { name: 'Username' })).toBeNull();

    // The email alone is not enough: the token the app password gave way to is required.
    await user.type(emailInput(), 'ana@acme.test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(tokenInput())).toBe('is required'));
    expect(api.seen(/^PUT/)).toEqual([]);

    await user.type(tokenInput(), 'ATATT3x-token');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual([`PUT /connection/${OLD_BITBUCKET}`]));
    expect(api.bodiesOf(exactly(`PUT /connection/${OLD_BITBUCKET}`))).toEqual([
      { settings: { workspace: 'acme', email: 'ana@acme.test', apiToken: 'ATATT3x-token', apiUrl: 'https://api.bitbucket.org/2.0' } },
    ]);
  });
});
