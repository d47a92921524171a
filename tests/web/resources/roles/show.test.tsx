import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { roles } from '../../../../resources/roles';
import { FRAMEWORK_TIMEOUT_MS, mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { rolesApi } from './rolesApi';

describe('the role show view', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('shows the details, the policies read-only, the pages by menu group and the users holding it with a link to them', async () => {
    signIn();
    const api = rolesApi();
    const view = renderDeclared([roles], { path: '/roles/r-ops/show' });
    const matrix = await screen.findByRole('table', { name: 'Policies' });
    expect(screen.getAllByText('Operators').length).toBeGreaterThan(0);
    expect(screen.getByText('Bob Builder')).toBeInTheDocument();
    expect(screen.getByText('Custom')).toBeInTheDocument();
    expect(api.seen(/GET \/role(s\/policy)?\//)).toEqual(['GET /role/r-ops', 'GET /roles/policy/r-ops']);

    const sessionsRead = within(matrix).getByRole('checkbox', { name: 'Sessions: Read' });
    expect(sessionsRead).toBeChecked();
    expect(sessionsRead).toBeDisabled();
    expect(within(matrix).getByRole('checkbox', { name: 'Sessions: every action' })).toBeChecked();
    expect(within(matrix).getByRole('checkbox', { name: 'Users: Read' })).not.toBeChecked();

    const pages = screen.getByRole('region', { name: 'Pages' });
    expect(within(pages).getByText('Overview')).toBeInTheDocument();
    expect(within(pages).getByText('Dashboard')).toBeInTheDocument();
    expect(within(pages).queryByText('Users')).toBeNull();

    const holders = screen.getByRole('region', { name: 'Users with this role' });
    expect(within(holders).getByText('2 users have this role')).toBeInTheDocument();
    expect(await within(holders).findByText('Holder 1 (holder1@acme.test)')).toBeInTheDocument();
    expect(within(holders).getByText('Holder 2 (holder2@acme.test)')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.path.startsWith('/users/')).map((call) => [call.path, call.body])).toEqual([
      ['/users/filter/10/0/DESC/createdAt', { role: 'r-ops' }],
    ]);
    const link = within(holders).getByRole('link', { name: 'Open in the users list' });
    await userEvent.click(link);
    await waitFor(() => expect(view.location().pathname).toBe('/users'));
    expect(JSON.parse(new URLSearchParams(view.location().search).get('filter')!)).toEqual({ role: 'r-ops' });
  });

  it('an admin role: every box ticked with the note; a system role cannot be deleted from here', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/r-admin/show' });
    const matrix = await screen.findByRole('table', { name: 'Policies' });
    expect(screen.getByText('An admin role holds every permission: its policies cannot be changed.')).toBeInTheDocument();
    within(matrix)
      .getAllByRole('checkbox')
      .forEach((input) => expect(input).toBeChecked());
    const remove = screen.getByRole('button', { name: 'Delete' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('A system role cannot be deleted');
    expect(screen.getByText('1 user has this role')).toBeInTheDocument();
    expect(api.seen(/DELETE/)).toEqual([]);
  });

  it('deleting from the show view asks first, then goes back to the list with the server message', async () => {
    signIn();
    const api = rolesApi();
    const view = renderDeclared([roles], { path: '/roles/r-analyst/show' });
    await screen.findByRole('table', { name: 'Policies' });
    expect(screen.getByText('No user has this role')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(view.location().pathname).toBe('/roles'));
    expect(api.seen(/DELETE/)).toEqual(['DELETE /roles/r-analyst']);
    expect(await screen.findByText('The role Analyst has been deleted')).toBeInTheDocument();
    // The list is read afresh: the role is gone from it.
    await screen.findByText('Operators', { selector: 'td, td *' });
    expect(screen.queryByText('Analyst', { selector: 'td, td *' })).toBeNull();
  });

  it('without users/read the holders are counted, not listed or linked', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'roles', actions: ['read'] }]);
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/r-ops/show' });
    await screen.findByRole('table', { name: 'Policies' });
    const holders = screen.getByRole('region', { name: 'Users with this role' });
    expect(within(holders).getByText('2 users have this role')).toBeInTheDocument();
    expect(within(holders).queryByRole('link')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(api.seen(/\/users\//)).toEqual([]);
  });
});
