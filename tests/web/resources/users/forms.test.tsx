import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderUsers, USERS_TIMEOUT_MS } from './render';
import { ROLE_ANALYST, usersApi, WS_FINANCE } from './usersApi';

async function choose(label: string, option: string) {
  await userEvent.click(await screen.findByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('the users forms', { timeout: USERS_TIMEOUT_MS }, () => {
  it('invite: the shared schema blocks bad input; a good one posts { email, firstName, lastName, roleId, workspaceIds } to /user', async () => {
    const api = usersApi();
    const view = renderUsers('/users/create');
    const email = await screen.findByLabelText('Email');
    // The form says what saving does.
    expect(screen.getByText('An invitation to choose a password is sent to this address.')).toBeInTheDocument();
    await userEvent.type(email, 'not-an-email');
    await userEvent.type(screen.getByLabelText('First name'), 'Dee');
    await userEvent.type(screen.getByLabelText('Last name'), 'D4ta');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be a valid email address')).toBeInTheDocument();
    expect(screen.getByText('may only contain letters, spaces, apostrophes, hyphens and periods')).toBeInTheDocument();
    // No role chosen: the role is required by the same schema, in words.
    expect(screen.getByText('Choose a role')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);

    await userEvent.clear(email);
    await userEvent.type(email, 'Dee@Acme.test');
    await userEvent.clear(screen.getByLabelText('Last name'));
    await userEvent.type(screen.getByLabelText('Last name'), "O'Data");
    await choose('Role', 'Analyst');
    await userEvent.click(await screen.findByRole('combobox', { name: 'Workspaces' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Finance' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /user']));
    expect(api.bodiesOf(/^POST \/user$/)).toEqual([
      { email: 'dee@acme.test', firstName: 'Dee', lastName: "O'Data", roleId: ROLE_ANALYST, workspaceIds: [WS_FINANCE] },
    ]);
    await waitFor(() => expect(view.location().pathname).toBe('/users'));
    expect(await screen.findByText('An invitation has been sent to dee@acme.test')).toBeInTheDocument();
  });

  it('invite: a server refusal naming a field shows on it and in the alert', async () => {
    const api = usersApi();
    api.failWith(/^POST \/user$/, 409, 'email: A user with this email already exists');
    const view = renderUsers('/users/create');
    await userEvent.type(await screen.findByLabelText('Email'), 'bob@acme.test');
    await userEvent.type(screen.getByLabelText('First name'), 'Bob');
    await choose('Role', 'Member');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('email: A user with this email already exists');
    expect(await screen.findByText('A user with this email already exists')).toBeInTheDocument();
    expect(view.location().pathname).toBe('/users/create');
  });

  it('edit: the username is checked live; a taken one blocks the save; a good save sends only the changed fields to PUT /user/profile/{id}', async () => {
    const api = usersApi();
    const view = renderUsers('/users/u-bob');
    const username = await screen.findByLabelText('Username');
    expect(username).toHaveValue('bob');
    expect(screen.getByLabelText('First name')).toHaveValue('Bob');
    expect(screen.getByLabelText('Phone')).toHaveValue('+44 20 7946 0958');
    // The account's own name is not checked.
    expect(screen.getByText('3 to 40 characters: letters, digits, dots, underscores, hyphens')).toBeInTheDocument();

    await userEvent.clear(username);
    await userEvent.type(username, 'ab!');
    // The shared rules answer before the server is asked.
    expect(await screen.findByText('Username may only contain letters, digits, dots, underscores and hyphens')).toBeInTheDocument();

    await userEvent.clear(username);
    await userEvent.type(username, 'Taken');
    expect(await screen.findByText('Already taken')).toBeInTheDocument();
    expect(api.seen(/username\/check/)).toEqual(['GET /users/username/check/taken?userId=u-bob']);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is already taken')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual([]);

    await userEvent.clear(username);
    await userEvent.type(username, 'bob.builder');
    expect(await screen.findByText('Available')).toBeInTheDocument();
    const phone = screen.getByLabelText('Phone');
    await userEvent.clear(phone);
    await userEvent.type(phone, '+1 555 0100');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /user/profile/u-bob']));
    expect(api.bodiesOf(/^PUT/)).toEqual([{ username: 'bob.builder', phone: '+1 555 0100' }]);
    expect(api.seen(/username\/check/)).not.toContain('GET /users/username/check/ab!?userId=u-bob');
    await waitFor(() => expect(view.location().pathname).toBe('/users/u-bob/show'));
    expect(await screen.findByText('bob@acme.test has been saved')).toBeInTheDocument();
  });

  it('edit: role, workspaces and the switches are sent when changed; clearing the phone sends null', async () => {
    const api = usersApi();
    renderUsers('/users/u-bob');
    await screen.findByLabelText('Username');
    await choose('Role', 'Analyst');
    // Bob is in Analytics and Finance: take Analytics out.
    const workspaces = await screen.findByRole('combobox', { name: 'Workspaces' });
    await userEvent.click(workspaces);
    await userEvent.click(await screen.findByRole('option', { name: 'Analytics' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('switch', { name: 'Require two-factor' }));
    await userEvent.clear(screen.getByLabelText('Phone'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /user/profile/u-bob']));
    expect(api.bodiesOf(/^PUT/)).toEqual([{ phone: null, roleId: ROLE_ANALYST, workspaceIds: [WS_FINANCE], otpRequired: true }]);
    expect(api.seen(/username\/check/)).toEqual([]);
    expect(await screen.findByText('bob@acme.test has been saved')).toBeInTheDocument();
    const saved = api.rows.find((row) => row.id === 'u-bob')!;
    expect(saved.roleName).toBe('Analyst');
    expect(within(document.body).queryByRole('dialog')).toBeNull();
  });
});
