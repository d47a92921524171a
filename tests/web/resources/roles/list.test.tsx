import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { roles } from '../../../../resources/roles';
import { FRAMEWORK_TIMEOUT_MS, mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { rolesApi } from './rolesApi';
import { headers, listToolbarShown, rowOf } from '../../listPage';

async function loadedTable(): Promise<HTMLElement> {
  const cell = await screen.findByText('Analyst', { selector: 'td, td *' });
  await listToolbarShown();
  return cell.closest('table')!;
}

describe('the roles list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('reads the list route, shows the rows with their type, admin flag and user count, and the cards', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    const table = await loadedTable();
    expect(headers(table)).toEqual(['Name', 'Description', 'Type', 'Admin', 'Status', 'Users', 'Updated']);
    expect(api.seen(/GET \/roles\/\d/)).toEqual(['GET /roles/0/10']);
    expect(within(table).getAllByRole('row')).toHaveLength(6);
    expect(rowOf('Member')).toHaveTextContent('System');
    expect(rowOf('Member')).toHaveTextContent('3');
    expect(rowOf('Operators')).toHaveTextContent('Custom');
    expect(rowOf('Operators')).toHaveTextContent('Sessions');
    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Roles').closest('[data-card]')).toHaveTextContent('5');
    expect(within(cards).getByText('Active').closest('[data-card]')).toHaveTextContent('4');
    expect(api.seen(/GET \/roles\/cards/)).toHaveLength(1);
  });

  it('type, status and creator filters post exactly their field to the filter route, sorted DESC by updatedAt', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    // Choices come from the filter props route, with its trailing slash.
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Custom' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body])).toEqual([
        ['/roles/filter/0/10/DESC/updatedAt', { type: 'custom' }],
      ]),
    );
    await waitFor(() => expect(screen.queryByText('Member', { selector: 'td, td *' })).toBeNull());
    expect(api.seen(/filter\/props/)).toEqual(['GET /roles/filter/props/']);

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Inactive' }));
    await waitFor(() =>
      expect(api.calls.at(-1)).toMatchObject({ path: '/roles/filter/0/10/DESC/updatedAt', body: { type: 'custom', status: 'inactive' } }),
    );
    await waitFor(() => expect(screen.queryByText('Analyst', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Auditor', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('the creator filter sends the chosen user ids', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    await userEvent.click(screen.getByRole('combobox', { name: 'Created by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bob Builder' }));
    await waitFor(() =>
      expect(api.calls.at(-1)).toMatchObject({ method: 'POST', path: '/roles/filter/0/10/DESC/updatedAt', body: { user: ['u-bob'] } }),
    );
    await waitFor(() => expect(screen.queryByText('Analyst', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Operators', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('the date range sends startDate and endDate', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    await userEvent.type(screen.getByLabelText('From'), '2026-01-01');
    await waitFor(() =>
      expect(api.calls.at(-1)).toMatchObject({ path: '/roles/filter/0/10/DESC/updatedAt', body: { startDate: '2026-01-01' } }),
    );
    await userEvent.type(screen.getByLabelText('To'), '2026-01-31');
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ startDate: '2026-01-01', endDate: '2026-01-31' }));
  });

  it('the search text alone goes to the search route with the paging in the body; with another filter, to the filter route', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    await userEvent.type(screen.getByPlaceholderText('Search roles'), 'ana');
    await waitFor(() =>
      expect(api.calls.at(-1)).toMatchObject({ method: 'POST', path: '/roles/search/0/10', body: { search: 'ana', offset: 0, limit: 10 } }),
    );
    await waitFor(() => expect(screen.queryByText('Member', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Analyst', { selector: 'td, td *' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() =>
      expect(api.calls.at(-1)).toMatchObject({ path: '/roles/filter/0/10/DESC/updatedAt', body: { search: 'ana', status: 'active' } }),
    );
  });

  it('system roles and roles users hold cannot be deactivated or deleted: the controls are disabled and say why', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    const member = rowOf('Member');
    const memberSwitch = within(member).getByRole('switch', { name: 'Active: Member' });
    expect(memberSwitch).toBeDisabled();
    expect(memberSwitch).toHaveAccessibleDescription('A system role cannot be deactivated');
    const memberDelete = within(member).getByRole('button', { name: 'Delete Member' });
    expect(memberDelete).toBeDisabled();
    expect(memberDelete).toHaveAccessibleDescription('A system role cannot be deleted');
    expect(within(rowOf('Admin')).getByRole('switch', { name: 'Active: Admin' })).toBeDisabled();
    expect(within(rowOf('Admin')).getByRole('button', { name: 'Delete Admin' })).toBeDisabled();
    const ops = rowOf('Operators');
    expect(within(ops).getByRole('switch', { name: 'Active: Operators' })).toHaveAccessibleDescription(
      '2 users have this role; give them another role first',
    );
    expect(within(ops).getByRole('button', { name: 'Delete Operators' })).toBeDisabled();

    // The reason is also the tooltip of the disabled control.
    await userEvent.hover(memberDelete.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent('A system role cannot be deleted');
    // Hovering and clicking around sent nothing.
    await userEvent.click(memberDelete.parentElement!);
    expect(api.seen(/PUT|DELETE/)).toEqual([]);
    // A custom role nobody holds has working controls.
    expect(within(rowOf('Analyst')).getByRole('switch', { name: 'Active: Analyst' })).toBeEnabled();
    expect(within(rowOf('Analyst')).getByRole('button', { name: 'Delete Analyst' })).toBeEnabled();
  });

  it('the activation switch sends PUT /roles/activate/{id} with isActive, then the list reloads with the server message', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    const analyst = within(rowOf('Analyst')).getByRole('switch', { name: 'Active: Analyst' });
    expect(analyst).toBeChecked();
    await userEvent.click(analyst);
    expect(await screen.findByText('The role Analyst has been deactivated')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'PUT').map((call) => [call.path, call.body])).toEqual([
      ['/roles/activate/r-analyst', { isActive: false }],
    ]);
    await waitFor(() => expect(within(rowOf('Analyst')).getByRole('switch', { name: 'Active: Analyst' })).not.toBeChecked());

    const auditor = within(rowOf('Auditor')).getByRole('switch', { name: 'Active: Auditor' });
    expect(auditor).not.toBeChecked();
    await userEvent.click(auditor);
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT').at(-1)).toMatchObject({
        path: '/roles/activate/r-auditor',
        body: { isActive: true },
      }),
    );
    await waitFor(() => expect(within(rowOf('Auditor')).getByRole('switch', { name: 'Active: Auditor' })).toBeChecked());
  });

  it('deleting a custom role asks first, then calls DELETE /roles/{id} and the row goes', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    await userEvent.click(within(rowOf('Analyst')).getByRole('button', { name: 'Delete Analyst' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The role Analyst has been deleted')).toBeInTheDocument();
    expect(api.seen(/DELETE/)).toEqual(['DELETE /roles/r-analyst']);
    await waitFor(() => expect(screen.queryByText('Analyst', { selector: 'td, td *' })).toBeNull());
  });

  it('a user who may read and update roles gets the switch, but no delete and no create', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'roles', actions: ['read', 'update'] }]);
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles' });
    await loadedTable();
    // The switch turns on once the policies are in: what follows is judged on them.
    await waitFor(() => expect(within(rowOf('Analyst')).getByRole('switch', { name: 'Active: Analyst' })).toBeEnabled());
    expect(within(rowOf('Analyst')).queryByRole('button', { name: 'Delete Analyst' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(api.seen(/PUT|DELETE|POST \/roles$/)).toEqual([]);
  });
});
