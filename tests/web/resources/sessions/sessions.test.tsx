import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sessions } from '../../../../resources/sessions';
import { mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { RESOURCE_TIMEOUT_MS } from '../audits/listApi';
import { ADA, LEO, session, sessionApi } from './sessionApi';
import { bodyRows, loaded, rowOf } from '../../listPage';

function addresses(): string[] {
  return bodyRows().map((row) => within(row).getByText(/^192\.0\.2\./).textContent ?? '');
}

/** Open ones first (1 and 2 open, 3 waiting for its code, 4 the caller's own, 5 ended, 6 expired). */
function someSessions() {
  return [
    session(1),
    session(2),
    session(3, 'pending'),
    session(4, 'active', { userId: ADA.id, userName: ADA.name, email: ADA.email, current: true }),
    session(5, 'ended'),
    session(6, 'expired'),
  ];
}

const endButton = (row: HTMLElement) => within(row).queryByRole('button', { name: /^End session of/ });

describe('sessions', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('lists the list route\'s sessions: who, from where, when, a status chip, "This session" on the caller\'s own; cards above', async () => {
    signIn();
    const api = sessionApi(someSessions());
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');

    expect(api.seen(/GET \/session\/\d/)).toEqual(['GET /session/0/10']);
    const headers = within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
      .filter(Boolean);
    expect(headers).toEqual(['User', 'Address', 'User agent', 'Started', 'Last seen', 'Status', 'Acting admin', 'Actions']);
    expect(addresses()).toEqual(['192.0.2.1', '192.0.2.2', '192.0.2.3', '192.0.2.4', '192.0.2.5', '192.0.2.6']);

    const first = rowOf('192.0.2.1');
    expect(within(first).getByRole('link', { name: 'Sessions of Mia Jones' })).toBeInTheDocument();
    expect(first).toHaveTextContent('mia@acme.test');
    expect(first).toHaveTextContent('Browser/1');
    expect(within(first).getByText('Active').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(within(rowOf('192.0.2.3')).getByText('Signing in')).toBeInTheDocument();
    expect(within(rowOf('192.0.2.5')).getByText('Ended')).toBeInTheDocument();
    expect(within(rowOf('192.0.2.6')).getByText('Ended')).toBeInTheDocument();
    expect(within(rowOf('192.0.2.4')).getByText('This session')).toBeInTheDocument();
    expect(screen.getAllByText('This session')).toHaveLength(1);

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Signed in now').closest('[data-card]')).toHaveTextContent('3');
    expect(within(cards).getByText('Sign-ins today').closest('[data-card]')).toHaveTextContent('5');
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
  });

  it("filters by user, status, dates and search with exactly those fields, in the spec's order ASC/isDeleted; a column sorts in the path", async () => {
    signIn();
    const api = sessionApi(Array.from({ length: 30 }, (_, index) => session(index + 1, index % 4 === 3 ? 'ended' : 'active')));
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    const lastFilter = () => api.calls.filter((call) => call.method === 'POST').at(-1);

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Ended' }));
    await waitFor(() =>
      expect(lastFilter()).toEqual({ method: 'POST', path: '/session/filter/0/10/ASC/isDeleted', body: { status: 'ended' } }),
    );
    await waitFor(() =>
      expect(addresses()).toEqual(['192.0.2.4', '192.0.2.8', '192.0.2.12', '192.0.2.16', '192.0.2.20', '192.0.2.24', '192.0.2.28']),
    );

    await userEvent.click(screen.getByRole('combobox', { name: 'User' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Leo Park' }));
    await waitFor(() => expect(lastFilter()?.body).toEqual({ status: 'ended', user: [LEO.id] }));

    await userEvent.type(screen.getByLabelText('From'), '2026-11-21');
    await waitFor(() => expect(lastFilter()?.body).toEqual({ status: 'ended', user: [LEO.id], startDate: '2026-11-21' }));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-21');
    await waitFor(() =>
      expect(lastFilter()?.body).toEqual({ status: 'ended', user: [LEO.id], startDate: '2026-11-21', endDate: '2026-11-21' }),
    );
    // Nov 22 12:00 less 16, 20, 24 and 28 hours.
    await waitFor(() => expect(addresses()).toEqual(['192.0.2.16', '192.0.2.20', '192.0.2.24', '192.0.2.28']));

    await userEvent.type(screen.getByPlaceholderText('Search sessions'), 'Browser/2');
    await waitFor(() =>
      expect(lastFilter()).toEqual({
        method: 'POST',
        path: '/session/filter/0/10/ASC/isDeleted',
        body: { status: 'ended', user: [LEO.id], startDate: '2026-11-21', endDate: '2026-11-21', search: 'Browser/2' },
      }),
    );
    await waitFor(() => expect(addresses()).toEqual(['192.0.2.20', '192.0.2.24', '192.0.2.28']));

    await userEvent.click(within(screen.getByRole('table')).getByRole('button', { name: /sort by started/i }));
    await waitFor(() => expect(lastFilter()?.path).toBe('/session/filter/0/10/ASC/createdAt'));
    await waitFor(() => expect(addresses()).toEqual(['192.0.2.28', '192.0.2.24', '192.0.2.20']));
  });

  it("a user's name leads to the sessions of that user: the list filtered to them", async () => {
    signIn();
    const api = sessionApi(Array.from({ length: 8 }, (_, index) => session(index + 1)));
    const view = renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    await userEvent.click(within(rowOf('192.0.2.2')).getByRole('link', { name: 'Sessions of Leo Park' }));
    await waitFor(() => expect(view.location().search).toBe(`?filter=${encodeURIComponent(JSON.stringify({ user: LEO.id }))}`));
    await waitFor(() =>
      expect(api.calls.at(-1)).toEqual({ method: 'POST', path: '/session/filter/0/10/ASC/isDeleted', body: { user: LEO.id } }),
    );
    await waitFor(() => expect(addresses()).toEqual(['192.0.2.2', '192.0.2.4', '192.0.2.6', '192.0.2.8']));
    // The user filter shows who the list is about.
    expect(
      within(screen.getByRole('combobox', { name: 'User' }).closest('.MuiAutocomplete-root') as HTMLElement).getByText('Leo Park'),
    ).toBeInTheDocument();
  });

  it('End session: on open sessions of others only; asks first, sends { sessionId }, reloads the list', async () => {
    signIn();
    const api = sessionApi(someSessions());
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    await waitFor(() => expect(endButton(rowOf('192.0.2.1'))).not.toBeNull());
    // Open ones and a sign-in waiting for its code; not the caller's own, not ended or expired ones.
    expect(endButton(rowOf('192.0.2.2'))).not.toBeNull();
    expect(endButton(rowOf('192.0.2.3'))).not.toBeNull();
    expect(endButton(rowOf('192.0.2.4'))).toBeNull();
    expect(endButton(rowOf('192.0.2.5'))).toBeNull();
    expect(endButton(rowOf('192.0.2.6'))).toBeNull();
    const listCalls = () => api.seen(/GET \/session\/\d/).length;
    const before = listCalls();

    await userEvent.click(endButton(rowOf('192.0.2.2'))!);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('End this session of Leo Park?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.seen(/PUT/)).toEqual([]);

    await userEvent.click(endButton(rowOf('192.0.2.2'))!);
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'End session' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
        { method: 'PUT', path: '/session/logout', body: { sessionId: session(2).id } },
      ]),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('The session of leo@acme.test has been ended');
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));
    // Reloaded: now over, listed after the open ones, without the button.
    await waitFor(() => expect(addresses()).toEqual(['192.0.2.1', '192.0.2.3', '192.0.2.4', '192.0.2.2', '192.0.2.5', '192.0.2.6']));
    expect(within(rowOf('192.0.2.2')).getByText('Ended')).toBeInTheDocument();
    expect(endButton(rowOf('192.0.2.2'))).toBeNull();
  });

  it("a refused End session shows the server's message and keeps the session", async () => {
    signIn();
    const api = sessionApi(someSessions());
    api.logoutFails = { status: 400, message: 'sessionId: this session has already ended' };
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    await userEvent.click(await within(rowOf('192.0.2.1')).findByRole('button', { name: 'End session of Mia Jones' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'End session' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('sessionId: this session has already ended');
    expect(within(rowOf('192.0.2.1')).getByText('Active')).toBeInTheDocument();
    expect(endButton(rowOf('192.0.2.1'))).not.toBeNull();
  });
});

describe('sessions: permissions', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('without the sessions delete permission there is no End session', async () => {
    signIn(plainUser);
    const policies = mockPolicies([{ resource: 'sessions', actions: ['read'] }]);
    sessionApi(someSessions());
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    await waitFor(() => expect(policies.calls()).toBe(1));
    expect(screen.queryAllByRole('button', { name: /^End session of/ })).toEqual([]);
  });

  it('with it, End session is there', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'sessions', actions: ['read', 'delete'] }]);
    sessionApi(someSessions());
    renderDeclared([sessions], { path: '/sessions' });
    await loaded('192.0.2.1');
    expect(await within(rowOf('192.0.2.1')).findByRole('button', { name: 'End session of Mia Jones' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^End session of/ })).toHaveLength(3);
  });
});
