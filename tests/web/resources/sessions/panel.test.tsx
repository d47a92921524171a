import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, memoryStore, RecordContextProvider, TestMemoryRouter } from 'react-admin';
import { declaredProviders } from '../../../../src/framework/providers';
import { sessions } from '../../../../resources/sessions';
import { UserSessionsPanel } from '../../../../resources/sessions/UserSessionsPanel';
import { AlertBar } from '../../../../src/shell/AlertBar';
import { mockPolicies, plainUser, signIn } from '../../framework/harness';
import { RESOURCE_TIMEOUT_MS } from '../audits/listApi';
import { LEO, session, sessionApi } from './sessionApi';

const BOB = { id: plainUser.id!, name: 'Bob', email: plainUser.email! };

/** The panel as a user's show view embeds it: inside the console's providers, the user as the record. */
function renderPanel(user: { id: string }, props: { userId?: string } = {}) {
  const declarations = [sessions];
  render(
    <TestMemoryRouter initialEntries={['/users/x/show']}>
      <AdminContext store={memoryStore()} {...declaredProviders(declarations)}>
        <AlertBar />
        <RecordContextProvider value={user}>
          <UserSessionsPanel {...props} />
        </RecordContextProvider>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

function panelRows(): HTMLElement[] {
  return within(screen.getByRole('table', { name: 'Sessions' }))
    .getAllByRole('row')
    .slice(1);
}

const ofBob = (index: number, state: Parameters<typeof session>[1] = 'active', current = false) =>
  session(index, state, { userId: BOB.id, userName: BOB.name, email: BOB.email, current });

describe('the sessions panel of a user', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it("shows another user's sessions (GET /session/user/{id}) to a holder of sessions read and delete, with End session and a link to all", async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'sessions', actions: ['read', 'delete'] }]);
    const api = sessionApi([session(2), session(4, 'ended'), session(6, 'pending'), session(1)]);
    renderPanel({ id: LEO.id });

    const panel = await screen.findByRole('region', { name: 'Sessions' });
    await waitFor(() => expect(panelRows()).toHaveLength(3));
    expect(api.seen(/\/session\/user/)).toEqual([`GET /session/user/${LEO.id}?offset=0&limit=20`]);
    // Open ones first: 2 (active), 6 (waiting for its code), then 4 (ended); not Mia's.
    expect(panelRows().map((row) => within(row).getByText(/^192\.0\.2\./).textContent)).toEqual(['192.0.2.2', '192.0.2.6', '192.0.2.4']);
    expect(within(panelRows()[0]).getByText('Active')).toBeInTheDocument();
    expect(within(panelRows()[2]).getByText('Ended')).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: 'All sessions of this user' })).toHaveAttribute(
      'href',
      `/sessions?filter=${encodeURIComponent(JSON.stringify({ user: LEO.id }))}`,
    );

    await waitFor(() => expect(within(panelRows()[0]).queryByRole('button', { name: 'End session of Leo Park' })).not.toBeNull());
    expect(within(panelRows()[2]).queryByRole('button', { name: /End session of/ })).toBeNull();
    await userEvent.click(within(panelRows()[0]).getByRole('button', { name: 'End session of Leo Park' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'End session' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
        { method: 'PUT', path: '/session/logout', body: { sessionId: session(2).id } },
      ]),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The session of leo@acme.test has been ended');
    // The panel reloads: session 2 is now over.
    await waitFor(() => expect(api.seen(/\/session\/user/)).toHaveLength(2));
    await waitFor(() =>
      expect(panelRows().map((row) => within(row).getByText(/^192\.0\.2\./).textContent)).toEqual(['192.0.2.6', '192.0.2.2', '192.0.2.4']),
    );
  });

  it('one\'s own sessions without any sessions policy: listed, "This session" marked, nothing to end, no link to the list', async () => {
    signIn(plainUser);
    mockPolicies([]);
    const api = sessionApi([ofBob(1, 'active', true), ofBob(3), ofBob(5, 'expired')]);
    renderPanel({ id: BOB.id });
    await screen.findByRole('region', { name: 'Sessions' });
    await waitFor(() => expect(panelRows()).toHaveLength(3));
    expect(api.seen(/\/session\/user/)).toEqual([`GET /session/user/${BOB.id}?offset=0&limit=20`]);
    expect(within(panelRows()[0]).getByText('This session')).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: /End session of/ })).toEqual([]);
    expect(screen.queryByRole('link', { name: 'All sessions of this user' })).toBeNull();
  });

  it("another user's sessions without the sessions read permission: nothing shown, nothing asked", async () => {
    signIn(plainUser);
    const policies = mockPolicies([{ resource: 'users', actions: ['read'] }]);
    const api = sessionApi([session(2)]);
    renderPanel({ id: 'x' }, { userId: LEO.id });
    await waitFor(() => expect(policies.calls()).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('region', { name: 'Sessions' })).toBeNull();
    expect(api.calls).toEqual([]);
  });
});
