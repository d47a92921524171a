import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { roles } from '../../../../resources/roles';
import { FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn } from '../../framework/harness';
import { rolesApi } from './rolesApi';

/** The editor once the role, its policies and both catalogues are in. */
async function loadedEditor(): Promise<void> {
  await screen.findByRole('checkbox', { name: 'Users: Read' });
  await screen.findByRole('checkbox', { name: 'Dashboard' });
}

const box = (name: string) => screen.getByRole('checkbox', { name });

// The editor tests click through two catalogues: twice a list test's time on a busy machine.
describe('the role editor', { timeout: 2 * FRAMEWORK_TIMEOUT_MS }, () => {
  it('create: a box only where the resource has the action, "all" per row; sends POST /roles with the policies and the pages', async () => {
    signIn();
    const api = rolesApi();
    const view = renderDeclared([roles], { path: '/roles/create' });
    await loadedEditor();
    // Audits are read-only: no create, update or delete box.
    const audits = screen.getByRole('row', { name: /System audits/ });
    expect(
      within(audits)
        .getAllByRole('checkbox')
        .map((input) => input.getAttribute('aria-label')),
    ).toEqual(['System audits: every action', 'System audits: Read']);
    // The dashboard is checked to start with; the outbox is for admin roles only.
    expect(box('Dashboard')).toBeChecked();
    expect(box('Mail outbox')).toBeDisabled();

    // Blanks are no name: the shared schema trims before it checks.
    await userEvent.type(screen.getByLabelText('Name'), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(api.seen(/POST \/roles$/)).toEqual([]);

    await userEvent.type(screen.getByLabelText('Name'), '  Support  ');
    await userEvent.type(screen.getByLabelText('Description'), 'Helps users');
    await userEvent.click(box('Users: Read'));
    await userEvent.click(box('Users: Update'));
    await userEvent.click(box('Roles and policies: every action'));
    expect(box('Roles and policies: Delete')).toBeChecked();
    await userEvent.click(box('Sessions: Delete'));
    // "All" of a row partly held is neither checked nor clear.
    expect(box('Users: every action')).toHaveAttribute('data-indeterminate', 'true');
    await userEvent.click(box('Dashboard'));
    await userEvent.click(box('Users'));
    await userEvent.click(box('Notifications'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.seen(/POST \/roles$/)).toEqual(['POST /roles']));
    expect(api.bodiesOf(/POST \/roles$/)[0]).toEqual({
      name: 'Support',
      description: 'Helps users',
      policies: [
        { resource: 'users', actions: ['read', 'update'] },
        { resource: 'roles', actions: ['read', 'create', 'update', 'delete'] },
        { resource: 'sessions', actions: ['delete'] },
      ],
      pageIds: ['notifications', 'users'],
    });
    await waitFor(() => expect(view.location().pathname).toBe('/roles/r-new-5/show'));
    expect(await screen.findByText('The role Support has been created')).toBeInTheDocument();
  });

  it('create: a role given no page is sent pageIds [] (not left to the server default); a taken name is marked on the field', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/create' });
    await loadedEditor();
    await userEvent.type(screen.getByLabelText('Name'), 'analyst');
    await userEvent.click(box('Dashboard'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/POST \/roles$/)).toHaveLength(1));
    expect(api.bodiesOf(/POST \/roles$/)[0]).toEqual({ name: 'analyst', description: '', policies: [], pageIds: [] });
    expect(await screen.findByRole('alert')).toHaveTextContent('A role named "analyst" already exists');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(api.rows).toHaveLength(5);
  });

  it('edit: the matrix sends PUT /policies/assign/{id} with exactly the policies, and nothing else changes', async () => {
    signIn();
    const api = rolesApi();
    const view = renderDeclared([roles], { path: '/roles/r-analyst' });
    await loadedEditor();
    expect(api.seen(/GET \/roles\/policy/)).toEqual(['GET /roles/policy/r-analyst']);
    expect(box('Users: Read')).toBeChecked();
    expect(box('Users: Update')).not.toBeChecked();
    expect(box('Dashboard')).toBeChecked();
    expect(box('Users')).toBeChecked();

    await userEvent.click(box('Users: Update'));
    await userEvent.click(box('System audits: Read'));
    await userEvent.click(box('Sessions: every action'));
    await userEvent.click(box('Sessions: Read'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.seen(/PUT/)).toEqual(['PUT /policies/assign/r-analyst']));
    expect(api.bodiesOf(/PUT \/policies\/assign/)).toEqual([
      {
        policies: [
          { resource: 'users', actions: ['read', 'update'] },
          { resource: 'audits', actions: ['read'] },
          { resource: 'sessions', actions: ['delete'] },
        ],
      },
    ]);
    await waitFor(() => expect(view.location().pathname).toBe('/roles/r-analyst/show'));
    expect(await screen.findByText('The policies of Analyst have been saved')).toBeInTheDocument();
    // The show view reads the policies afresh.
    await waitFor(() =>
      expect(within(screen.getByRole('table', { name: 'Policies' })).getByRole('checkbox', { name: 'Users: Update' })).toBeChecked(),
    );
    expect(within(screen.getByRole('table', { name: 'Policies' })).getByRole('checkbox', { name: 'Users: Update' })).toBeDisabled();
  });

  it('edit: pages changes send only the difference, by assign and unassign; the details go by PUT /roles/{id} with the changed field only', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/r-analyst' });
    await loadedEditor();
    await userEvent.click(box('Users'));
    await userEvent.click(box('Notifications'));
    await userEvent.click(box('Roles and policies'));
    const description = screen.getByLabelText('Description');
    await userEvent.clear(description);
    await userEvent.type(description, 'Reads users, sees roles');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(api.seen(/PUT/)).toEqual([
        'PUT /roles/r-analyst',
        'PUT /roles/policies/pages/assign/r-analyst',
        'PUT /roles/policies/pages/unassign/r-analyst',
      ]),
    );
    expect(api.bodiesOf(/PUT \/roles\/r-analyst/)).toEqual([{ description: 'Reads users, sees roles' }]);
    expect(api.bodiesOf(/pages\/assign/)).toEqual([{ pageIds: ['notifications', 'roles'] }]);
    expect(api.bodiesOf(/pages\/unassign/)).toEqual([{ pageIds: ['users'] }]);
    expect(api.rows.find((row) => row.id === 'r-analyst')?.pageIds).toEqual(['dashboard', 'notifications', 'roles']);
  });

  it('edit: a refusal stops the save with the server message and keeps the form as entered', async () => {
    signIn();
    const api = rolesApi();
    api.failWith(/PUT \/policies\/assign/, 400, 'policies.0.actions: users allows only read, create, update, delete');
    const view = renderDeclared([roles], { path: '/roles/r-analyst' });
    await loadedEditor();
    await userEvent.click(box('Users: Delete'));
    await userEvent.click(box('Users'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('policies.0.actions: users allows only read, create, update, delete');
    // Stopped at the refusal: the pages were not touched.
    expect(api.seen(/PUT/)).toEqual(['PUT /policies/assign/r-analyst']);
    expect(view.location().pathname).toBe('/roles/r-analyst');
    expect(box('Users: Delete')).toBeChecked();
    expect(box('Users')).not.toBeChecked();
  });

  it('a system role keeps its name: the input is disabled and says why; its description can still change', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/r-member' });
    await loadedEditor();
    const name = screen.getByLabelText('Name');
    expect(name).toBeDisabled();
    expect(name).toHaveValue('Member');
    expect(screen.getByText('A system role keeps its name')).toBeInTheDocument();
    // A system role cannot be deleted from here either.
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
    const description = screen.getByLabelText('Description');
    await userEvent.clear(description);
    await userEvent.type(description, 'Everyone');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/PUT/)).toEqual(['PUT /roles/r-member']));
    expect(api.bodiesOf(/PUT \/roles\/r-member/)).toEqual([{ description: 'Everyone' }]);
  });

  it('an admin role: the matrix is read-only with the note that admins hold everything, its policies are never sent', async () => {
    signIn();
    const api = rolesApi();
    renderDeclared([roles], { path: '/roles/r-admin' });
    await loadedEditor();
    expect(screen.getByText('An admin role holds every permission: its policies cannot be changed.')).toBeInTheDocument();
    const matrix = screen.getByRole('table', { name: 'Policies' });
    const boxes = within(matrix).getAllByRole('checkbox');
    expect(boxes.length).toBeGreaterThan(0);
    boxes.forEach((input) => {
      expect(input).toBeChecked();
      expect(input).toBeDisabled();
    });
    // An admin role may hold the outbox, and keeps the roles page.
    expect(box('Mail outbox')).toBeEnabled();
    expect(box('Roles and policies')).toBeDisabled();
    await userEvent.click(box('Mail outbox'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.seen(/PUT/)).toEqual(['PUT /roles/policies/pages/unassign/r-admin']));
    expect(api.bodiesOf(/unassign/)).toEqual([{ pageIds: ['outbox'] }]);
  });
});
