import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { reloadAt } from '../../../../providers/navigation';
import { getImpersonator, getStoredUser } from '../../../../providers/storage';
import type { SessionUser } from '../../../../providers/types';
import { plainUser } from '../../framework/harness';
import { server } from '../../msw';
import { mockPolicies, renderUsers, USERS_TIMEOUT_MS } from './render';
import { API, ROLE_MEMBER, usersApi } from './usersApi';
import { rowOf } from '../../listPage';

// A full page load cannot happen in jsdom: record where the console would have gone.
vi.mock('../../../../providers/navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../../../providers/navigation')>()),
  reloadAt: vi.fn(),
}));

beforeEach(() => vi.mocked(reloadAt).mockClear());

async function openMenu(name: string): Promise<HTMLElement> {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  return screen.findByRole('menu');
}

function menuItems(menu: HTMLElement): string[] {
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent ?? '');
}

const bobSession: SessionUser = {
  ...plainUser,
  id: 'u-bob',
  email: 'bob@acme.test',
  accessToken: 'token-as-bob',
  token: 'token-as-bob',
  navItems: { userNavItemJson: { items: [{ id: 'work', title: 'Work', children: [{ id: 'tables', title: 'Tables', url: '/tables' }] }] } },
  impersonator: { id: 'u-ada', email: 'ada@acme.test', name: 'Ada Admin' },
};

describe('users: record actions', { timeout: USERS_TIMEOUT_MS }, () => {
  it('an admin acts as an active user through POST /user/impersonate; the console reloads as them', async () => {
    usersApi();
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/user/impersonate`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Signed in as Bob Builder', user: bobSession });
      }),
    );
    renderUsers('/users');
    await screen.findByText('bob@acme.test');
    // Not oneself, not someone who has not activated their account.
    expect(menuItems(await openMenu('Ada Admin'))).toEqual(['Access control']);
    await userEvent.keyboard('{Escape}');
    expect(menuItems(await openMenu('Cy Newcomer'))).toEqual(['Resend invitation', 'Access control']);
    await userEvent.keyboard('{Escape}');

    const menu = await openMenu('Bob Builder');
    expect(menuItems(menu)).toEqual(['Act as this user', 'Access control']);
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Act as this user' }));
    await waitFor(() => expect(reloadAt).toHaveBeenCalledWith('/tables'));
    expect(bodies).toEqual([{ userId: 'u-bob' }]);
    expect(getStoredUser()?.accessToken).toBe('token-as-bob');
    expect(getImpersonator()?.id).toBe('u-ada');
  });

  it('someone who is not an admin is not offered to act as anyone, nor demo accounts', async () => {
    usersApi();
    mockPolicies([{ resource: 'users', actions: ['read', 'create'] }]);
    renderUsers('/users', { ...plainUser, id: 'u-cy', companyHostname: 'acme' });
    await screen.findByText('bob@acme.test');
    expect(menuItems(await openMenu('Bob Builder'))).toEqual(['Access control']);
    expect(screen.queryByRole('button', { name: 'Create demo account' })).toBeNull();
  });

  it("resend invitation posts { email, companyHostname } from the stored session and shows the server's message", async () => {
    const api = usersApi();
    renderUsers('/users');
    await screen.findByText('cy@acme.test');
    const menu = await openMenu('Cy Newcomer');
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Resend invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'If this account is waiting for activation, a new activation email is on its way',
    );
    expect(api.seen(/resend/)).toEqual(['POST /user/token/resend']);
    expect(api.bodiesOf(/resend/)).toEqual([{ email: 'cy@acme.test', companyHostname: 'acme' }]);
    // The row stays where it was: nothing opened.
    expect(rowOf('cy@acme.test')).toBeInTheDocument();
  });

  it('"Access control" in a row opens the user with the access control panel', async () => {
    usersApi();
    const view = renderUsers('/users');
    await screen.findByText('bob@acme.test');
    await userEvent.click(within(await openMenu('Bob Builder')).getByRole('menuitem', { name: 'Access control' }));
    await waitFor(() => expect(view.location().pathname).toBe('/users/u-bob/show'));
    expect(view.location().hash).toBe('#access-control');
    const panel = await screen.findByRole('region', { name: 'Access control' });
    expect(await within(panel).findByRole('checkbox', { name: "Use the role's policy for Users" })).toBeInTheDocument();
  });

  it("a failed resend shows the server's message as the error", async () => {
    const api = usersApi();
    api.failWith(/resend/, 429, 'Too many requests from this address. Try again later.');
    renderUsers('/users');
    await screen.findByText('cy@acme.test');
    await userEvent.click(within(await openMenu('Cy Newcomer')).getByRole('menuitem', { name: 'Resend invitation' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests from this address. Try again later.');
  });

  it('demo account: a taken username blocks it, the password follows the policy, a good one posts to /client/createUser', async () => {
    const api = usersApi();
    renderUsers('/users');
    await screen.findByText('bob@acme.test');
    await userEvent.click(await screen.findByRole('button', { name: 'Create demo account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create demo account' });
    await userEvent.type(within(dialog).getByLabelText('Email'), 'demo@acme.test');
    const username = within(dialog).getByLabelText('Username');
    await userEvent.type(username, 'taken');
    expect(await within(dialog).findByText('Already taken')).toBeInTheDocument();
    expect(api.seen(/checkDuplicate/)).toEqual(['GET /client/checkDuplicateUserName/taken']);
    await userEvent.type(within(dialog).getByLabelText('First name'), 'Demo');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'short1');
    await userEvent.click(await within(dialog).findByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Member' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(await within(dialog).findByText('Password must be at least 10 characters long')).toBeInTheDocument();
    expect(api.seen(/createUser/)).toEqual([]);

    const password = within(dialog).getByLabelText('Password');
    await userEvent.clear(password);
    await userEvent.type(password, 'Demo-pass-123');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    expect(await within(dialog).findByText('is already taken')).toBeInTheDocument();
    expect(api.seen(/createUser/)).toEqual([]);

    await userEvent.clear(username);
    await userEvent.type(username, 'demo.one');
    expect(await within(dialog).findByText('Available')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(api.seen(/createUser/)).toEqual(['POST /client/createUser']));
    expect(api.bodiesOf(/createUser/)).toEqual([
      { email: 'demo@acme.test', username: 'demo.one', firstName: 'Demo', lastName: '', password: 'Demo-pass-123', roleId: ROLE_MEMBER },
    ]);
    expect(await screen.findByText('demo@acme.test has been created and can sign in now')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('demo@acme.test', { selector: 'td, td *' })).toBeInTheDocument();
  });
});

describe('users: the show view', { timeout: USERS_TIMEOUT_MS }, () => {
  it("shows the details, the profile activity of the last 30 days and the access control matrix; saving sends the user's own policies", async () => {
    const api = usersApi();
    renderUsers('/users/u-bob/show');
    expect(await screen.findByText('Bob Builder')).toBeInTheDocument();
    expect(screen.getByText('Analytics')).toBeInTheDocument();

    const activity = await screen.findByRole('region', { name: 'Activity over the last 30 days' });
    expect(within(activity).getByText('Sign-ins').closest('[data-card]')).toHaveTextContent('12');
    expect(within(activity).getByText('Changes made').closest('[data-card]')).toHaveTextContent('1,234');
    expect(api.seen(/profile\/cards/)).toEqual(['GET /user/profile/cards/u-bob/30']);

    const panel = screen.getByRole('region', { name: 'Access control' });
    expect(within(panel).getByText('Role: Member')).toBeInTheDocument();
    const useRoleForUsers = await within(panel).findByRole('checkbox', { name: "Use the role's policy for Users" });
    expect(useRoleForUsers).toBeChecked();
    // The role's actions show, and cannot be changed while the role's policy is used.
    expect(within(panel).getByRole('checkbox', { name: 'Read on Users' })).toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'Read on Users' })).toBeDisabled();
    expect(within(panel).getByRole('checkbox', { name: 'Create on Users' })).not.toBeChecked();
    // Audits have nothing but read.
    expect(within(panel).queryByRole('checkbox', { name: 'Create on System audits' })).toBeNull();
    const save = within(panel).getByRole('button', { name: 'Save access' });
    expect(save).toBeDisabled();

    await userEvent.click(useRoleForUsers);
    // Taken over from what the role gives, then changed.
    expect(within(panel).getByRole('checkbox', { name: 'Read on Users' })).toBeEnabled();
    expect(within(panel).getByRole('checkbox', { name: 'Read on Users' })).toBeChecked();
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Create on Users' }));
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Update on Users' }));
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Update on Users' }));
    // Audits taken away: the user's own entry with no action.
    await userEvent.click(within(panel).getByRole('checkbox', { name: "Use the role's policy for System audits" }));
    expect(within(panel).getByRole('checkbox', { name: 'Read on System audits' })).toBeChecked();
    await userEvent.click(within(panel).getByRole('checkbox', { name: 'Read on System audits' }));
    expect(save).toBeEnabled();
    await userEvent.click(save);

    await waitFor(() => expect(api.seen(/^POST \/authorization/)).toEqual(['POST /authorization/policies/u-bob']));
    expect(api.bodiesOf(/^POST \/authorization/)).toEqual([
      {
        policies: [
          { resource: 'users', actions: ['read', 'create'] },
          { resource: 'audits', actions: [] },
        ],
      },
    ]);
    expect(await screen.findByText('The user policies have been saved; they apply from the user’s next action')).toBeInTheDocument();
    await waitFor(() => expect(save).toBeDisabled());
    expect(within(panel).getByRole('checkbox', { name: "Use the role's policy for Users" })).not.toBeChecked();
  });

  it("going back to the role's policy removes the user's own entry; an empty list gives the role back", async () => {
    const api = usersApi();
    renderUsers('/users/u-cy/show');
    const panel = await screen.findByRole('region', { name: 'Access control' });
    const useRoleForRoles = await within(panel).findByRole('checkbox', { name: "Use the role's policy for Roles and policies" });
    expect(useRoleForRoles).not.toBeChecked();
    expect(within(panel).getByRole('checkbox', { name: 'Read on Roles and policies' })).toBeChecked();
    await userEvent.click(useRoleForRoles);
    // The role gives nothing on roles.
    expect(within(panel).getByRole('checkbox', { name: 'Read on Roles and policies' })).not.toBeChecked();
    await userEvent.click(within(panel).getByRole('button', { name: 'Save access' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/authorization/)).toEqual([{ policies: [] }]));
  });

  it('an admin role holds every policy: no matrix to edit; nor for oneself', async () => {
    usersApi();
    renderUsers('/users/u-ada/show');
    const panel = await screen.findByRole('region', { name: 'Access control' });
    expect(await within(panel).findByText(/has an admin role, which holds every policy/)).toBeInTheDocument();
    expect(within(panel).queryByRole('checkbox')).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Save access' })).toBeNull();
  });

  it('someone with read but not update on users sees the matrix and cannot change it', async () => {
    const api = usersApi();
    mockPolicies([{ resource: 'users', actions: ['read'] }]);
    renderUsers('/users/u-bob/show', { ...plainUser, id: 'u-cy' });
    const panel = await screen.findByRole('region', { name: 'Access control' });
    const useRole = await within(panel).findByRole('checkbox', { name: "Use the role's policy for Users" });
    expect(useRole).toBeDisabled();
    expect(within(panel).queryByRole('button', { name: 'Save access' })).toBeNull();
    expect(api.seen(/^POST/)).toEqual([]);
  });
});
