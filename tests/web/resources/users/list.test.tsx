import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderUsers, USERS_TIMEOUT_MS } from './render';
import { ROLE_ANALYST, ROLE_MEMBER, usersApi, WS_FINANCE } from './usersApi';
import { headers, loadedTable, rowOf } from '../../listPage';

const FILTER_PATH = '/users/filter/10/0/DESC/createdAt';

describe('the users list', { timeout: USERS_TIMEOUT_MS }, () => {
  it("calls GET /users/0/10 and shows the server's rows with the contract's columns, cards above", async () => {
    const api = usersApi();
    renderUsers('/users');
    const table = await loadedTable('bob@acme.test');
    expect(headers(table)).toEqual([
      'Email',
      'Name',
      'Username',
      'Role',
      'Status',
      'Active',
      'Workspaces',
      'Two-factor',
      'Last sign-in',
      'Created',
    ]);
    const bob = rowOf('bob@acme.test');
    expect(bob).toHaveTextContent('Bob Builder');
    expect(within(bob).getByText('Member')).toBeInTheDocument();
    expect(within(bob).getByText('Analytics')).toBeInTheDocument();
    expect(within(bob).getByText('Finance')).toBeInTheDocument();
    expect(within(bob).getByRole('switch', { name: 'Active: Bob Builder' })).toBeChecked();
    // The status is a chip with the translated status.
    expect(within(rowOf('cy@acme.test')).getByText('Invited').closest('.MuiChip-root')).not.toBeNull();
    // Phone is a hidden column, offered by the columns button.
    expect(screen.queryByText('+44 20 7946 0958')).toBeNull();

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Users').closest('[data-card]')).toHaveTextContent('3');
    expect(within(cards).getByText('Invited').closest('[data-card]')).toHaveTextContent('1');
    expect(within(cards).getByText('Two-factor on').closest('[data-card]')).toHaveTextContent('1');

    expect(api.seen(/^GET \/users\/\d/)).toEqual(['GET /users/0/10']);
    expect(api.seen(/filter\/\d/)).toEqual([]);
  });

  it('the status filter sends { status } to the limit-before-offset filter path', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Invited' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(api.seen(/^POST/)).toEqual([`POST ${FILTER_PATH}`]));
    expect(api.bodiesOf(/^POST \/users\/filter/)).toEqual([{ status: ['invited'] }]);
    await waitFor(() => expect(screen.queryByText('bob@acme.test')).toBeNull());
    expect(screen.getByText('cy@acme.test')).toBeInTheDocument();
  });

  it('the role filter sends role ids', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(screen.getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Analyst' }));
    await userEvent.click(screen.getByRole('option', { name: 'Member' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ role: [ROLE_ANALYST, ROLE_MEMBER] }));
    expect(api.seen(/^POST/).every((line) => line === `POST ${FILTER_PATH}`)).toBe(true);
  });

  it('the workspace filter sends workspace ids', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(screen.getByRole('combobox', { name: 'Workspace' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Finance' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ workspace: [WS_FINANCE] }));
    expect(api.seen(/^POST/).at(-1)).toBe(`POST ${FILTER_PATH}`);
    await waitFor(() => expect(screen.queryByText('cy@acme.test')).toBeNull());
    expect(screen.getByText('bob@acme.test')).toBeInTheDocument();
  });

  it('the dates send startDate and endDate, the search sends search', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.type(screen.getByLabelText('From'), '2026-10-01');
    await waitFor(() => expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ startDate: '2026-10-01' }));
    await userEvent.type(screen.getByLabelText('To'), '2026-10-31');
    await waitFor(() => expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ startDate: '2026-10-01', endDate: '2026-10-31' }));
    await userEvent.type(screen.getByPlaceholderText('Search users'), 'builder');
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ startDate: '2026-10-01', endDate: '2026-10-31', search: 'builder' }),
    );
    expect(new Set(api.seen(/^POST/))).toEqual(new Set([`POST ${FILTER_PATH}`]));
    await waitFor(() => expect(screen.queryByText('ada@acme.test')).toBeNull());
    expect(screen.getByText('bob@acme.test')).toBeInTheDocument();
  });

  it('sorting by a column keeps the limit-before-offset path with the sort in it', async () => {
    const api = usersApi();
    renderUsers('/users');
    const table = await loadedTable('bob@acme.test');
    await userEvent.click(within(table).getByRole('button', { name: /sort by email/i }));
    await waitFor(() => expect(api.seen(/^POST/)).toEqual(['POST /users/filter/10/0/ASC/email']));
  });

  it("a status card's link opens the list filtered by that status, shown in the filter", async () => {
    const api = usersApi();
    const view = renderUsers('/users');
    const cards = await screen.findByRole('region', { name: 'Summary' });
    await userEvent.click(await within(cards).findByText('Active'));
    await waitFor(() => expect(view.location().search).toContain('filter='));
    await waitFor(() => expect(api.bodiesOf(/^POST \/users\/filter/).at(-1)).toEqual({ status: ['active'] }));
    await waitFor(() => expect(screen.queryByText('cy@acme.test', { selector: 'td, td *' })).toBeNull());
    expect(within(screen.getByRole('combobox', { name: 'Status' })).getByText('Active')).toBeInTheDocument();
  });

  it('delete marks the row deleting while the call runs, then removes it', async () => {
    const api = usersApi();
    const release = api.hold(/^DELETE \/users\/u-bob/);
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(await within(rowOf('bob@acme.test')).findByRole('button', { name: 'Delete Bob Builder' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await within(rowOf('bob@acme.test')).findByLabelText('Deleting…')).toBeInTheDocument();
    expect(rowOf('bob@acme.test')).toHaveStyle({ opacity: '0.5' });
    expect(api.seen(/^DELETE/)).toEqual(['DELETE /users/u-bob']);
    release();
    expect(await screen.findByText('bob@acme.test has been deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('bob@acme.test', { selector: 'td, td *' })).toBeNull());
  });

  it("a refused delete keeps the row with the server's message (deleteError)", async () => {
    const api = usersApi();
    api.failWith(/^DELETE \/users\/u-bob/, 400, 'id: the last active admin cannot be deleted');
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(await within(rowOf('bob@acme.test')).findByRole('button', { name: 'Delete Bob Builder' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('id: the last active admin cannot be deleted');
    const row = rowOf('bob@acme.test');
    expect(within(row).getByText('Not deleted: id: the last active admin cannot be deleted')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Delete Bob Builder' })).toBeEnabled();
    expect(api.rows.map((candidate) => candidate.id)).toContain('u-bob');
  });

  it('does not offer to delete or deactivate your own account: the controls say why, and nothing is sent', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('ada@acme.test');
    const own = rowOf('ada@acme.test');
    const remove = await within(own).findByRole('button', { name: 'Delete Ada Admin' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('You cannot delete your own account');
    const active = within(own).getByRole('switch', { name: 'Active: Ada Admin' });
    expect(active).toBeDisabled();
    expect(active).toHaveAccessibleDescription('You cannot deactivate your own account');
    expect(within(rowOf('bob@acme.test')).getByRole('button', { name: 'Delete Bob Builder' })).toBeEnabled();
    expect(api.seen(/^(PUT|DELETE)/)).toEqual([]);
  });

  it('the activation switch sends PUT /user/profile/{id} { isActive }', async () => {
    const api = usersApi();
    renderUsers('/users');
    await loadedTable('bob@acme.test');
    await userEvent.click(within(rowOf('bob@acme.test')).getByRole('switch', { name: 'Active: Bob Builder' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /user/profile/u-bob']));
    expect(api.bodiesOf(/^PUT/)).toEqual([{ isActive: false }]);
    expect(await screen.findByText('bob@acme.test has been saved')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('bob@acme.test')).getByRole('switch', { name: 'Active: Bob Builder' })).not.toBeChecked());
    expect(within(rowOf('bob@acme.test')).getByText('Inactive')).toBeInTheDocument();
  });
});
