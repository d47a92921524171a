import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { audits } from '../../../../resources/audits';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { API, mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { ADA, auditApi, auditEntry, MIA } from './auditApi';
import { RESOURCE_TIMEOUT_MS } from './listApi';
import { loaded, rowOf } from '../../listPage';

function table(): HTMLElement {
  return screen.getByRole('table');
}

function bodyRows(): HTMLElement[] {
  return within(table()).getAllByRole('row').slice(1);
}

/** Picks options of a multiple select, then closes its menu. */
async function pick(label: string, ...options: string[]) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  for (const option of options) await userEvent.click(await screen.findByRole('option', { name: option }));
  await userEvent.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
}

function headers(): string[] {
  return within(table())
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '')
    .filter(Boolean);
}

const entries = (count: number) => Array.from({ length: count }, (_, index) => auditEntry(index + 1));

describe('system audits', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('lists the entries of the list route with who, what and where, the cards above, read-only', async () => {
    signIn();
    const api = auditApi([
      auditEntry(1, {
        impersonatorUserId: ADA.id,
        impersonatorEmail: 'ada@acme.test',
        userId: MIA.id,
        userName: MIA.name,
        userEmail: MIA.email,
      }),
      auditEntry(2, { userId: null, userName: null, userEmail: null }),
      auditEntry(3, { userName: null, userEmail: null }),
      ...entries(20).slice(3),
    ]);
    renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');

    expect(api.seen(/GET \/system\/audits\/\d/)).toEqual(['GET /system/audits/0/10']);
    expect(headers()).toEqual(['Time', 'User', 'Acting admin', 'Model', 'Operation', 'Address']);
    expect(bodyRows()).toHaveLength(10);
    const first = rowOf('203.0.113.1');
    expect(first).toHaveTextContent('Mia Jones');
    expect(first).toHaveTextContent('mia@acme.test');
    expect(first).toHaveTextContent('ada@acme.test');
    // The model and operation read as the filter props name them.
    expect(within(first).getByText('User')).toBeInTheDocument();
    expect(within(first).getByText('Create')).toBeInTheDocument();
    expect(rowOf('203.0.113.2')).toHaveTextContent('System');
    expect(rowOf('203.0.113.3')).toHaveTextContent('Removed user');
    expect(screen.getByText('1–10 of 20')).toBeInTheDocument();

    const cards = screen.getByRole('region', { name: 'Summary' });
    expect(within(cards).getByText('Audit entries').closest('[data-card]')).toHaveTextContent('20');
    // The server's label says when it stopped counting; the console keeps it.
    expect(within(cards).getByText('Entries in the last 7 days (10,000 or more)').closest('[data-card]')).toHaveTextContent('10,000');
    expect(within(cards).getByText('Users who made changes in the last 7 days')).toBeInTheDocument();

    // Read-only: export, but no create, edit or delete anywhere; a selection offers its export only.
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(within(first).queryByRole('button', { name: /delete/i })).toBeNull();
    await userEvent.click(within(first).getByRole('checkbox'));
    expect(await screen.findByRole('button', { name: 'Export selected' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(screen.queryByRole('button', { name: /activate/i })).toBeNull();
  });

  it('past a capped count the total reads "20+" and the next page stays reachable while pages come back full', async () => {
    signIn();
    const api = auditApi(entries(35));
    api.countCap = 20;
    renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    expect(screen.getByText('1–10 of 20+')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('11–20 of 20+')).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('21–30 of 20+')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
    // The range is drawn as the page changes, over the last rows until the new ones come: wait for the call.
    await waitFor(() =>
      expect(api.seen(/GET \/system\/audits\/\d/)).toEqual([
        'GET /system/audits/0/10',
        'GET /system/audits/10/10',
        'GET /system/audits/20/10',
      ]),
    );
  });

  it('reads "of 10,000+" when the server counted 10,000 and stopped', async () => {
    signIn();
    auditApi(entries(10));
    server.use(
      http.get(`${API}/system/audits/:offset/:limit`, () =>
        HttpResponse.json({ message: 'System audits', data: { rows: entries(10), count: 10_000, countExact: false } }),
      ),
    );
    renderDeclared([audits], { path: '/audits' });
    expect(await screen.findByText('1–10 of 10,000+')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
  });

  it('each filter field sends exactly its body, with the offset and limit of the path in it too', async () => {
    signIn();
    const api = auditApi(entries(40));
    renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    const filterCalls = () => api.calls.filter((call) => call.method === 'POST');

    // Model: choices of the filter props.
    await userEvent.click(screen.getByRole('combobox', { name: 'Model' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Role', 'User', 'Workspace']);
    await userEvent.keyboard('{Escape}');
    await pick('Model', 'Role');
    await waitFor(() =>
      expect(filterCalls().at(-1)).toEqual({
        method: 'POST',
        path: '/system/audits/filter/0/10',
        body: { model: ['role'], offset: 0, limit: 10 },
      }),
    );
    await waitFor(() => expect(screen.getByText('1–10 of 13')).toBeInTheDocument());
    expect(bodyRows().every((row) => within(row).queryByText('Role') !== null)).toBe(true);

    // Operation, on top.
    await pick('Operation', 'Delete');
    await waitFor(() => expect(filterCalls().at(-1)?.body).toEqual({ model: ['role'], operation: ['delete'], offset: 0, limit: 10 }));

    // Paging a filtered list: the body's offset and limit follow the path's.
    await pick('Operation', 'Delete');
    await waitFor(() => expect(filterCalls().at(-1)?.body).toEqual({ model: ['role'], offset: 0, limit: 10 }));
    await waitFor(() => expect(screen.getByText('1–10 of 13')).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() =>
      expect(filterCalls().at(-1)).toEqual({
        method: 'POST',
        path: '/system/audits/filter/10/10',
        body: { model: ['role'], offset: 10, limit: 10 },
      }),
    );
    expect(api.seen(/filter\/props/)).toHaveLength(1);
  });

  it('the user, date range and search filters send user ids, startDate, endDate and search', async () => {
    signIn();
    const api = auditApi(entries(30));
    renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    const lastFilter = () => api.calls.filter((call) => call.method === 'POST').at(-1);

    await userEvent.click(screen.getByRole('combobox', { name: 'User' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Mia Jones' }));
    await waitFor(() =>
      expect(lastFilter()).toEqual({ method: 'POST', path: '/system/audits/filter/0/10', body: { user: [MIA.id], offset: 0, limit: 10 } }),
    );
    await waitFor(() => expect(bodyRows().every((row) => within(row).queryByText('Mia Jones') !== null)).toBe(true));

    await userEvent.type(screen.getByLabelText('From'), '2026-11-21');
    await waitFor(() => expect(lastFilter()?.body).toEqual({ user: [MIA.id], startDate: '2026-11-21', offset: 0, limit: 10 }));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-21');
    await waitFor(() =>
      expect(lastFilter()?.body).toEqual({ user: [MIA.id], startDate: '2026-11-21', endDate: '2026-11-21', offset: 0, limit: 10 }),
    );

    await userEvent.type(screen.getByPlaceholderText('Search audits'), 'Old 1');
    await waitFor(() =>
      expect(lastFilter()?.body).toEqual({
        user: [MIA.id],
        startDate: '2026-11-21',
        endDate: '2026-11-21',
        search: 'Old 1',
        offset: 0,
        limit: 10,
      }),
    );
    // Mia's entries of Nov 21 whose changes mention "Old 1": her update 15 only.
    await waitFor(() => expect(bodyRows().map((row) => within(row).getAllByRole('cell').at(-1)?.textContent)).toEqual(['203.0.113.15']));
  });

  it('the show view of a row on a later page: the fields and the changes as a before/after table', async () => {
    signIn();
    const api = auditApi(entries(25));
    const view = renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await loaded('203.0.113.15');
    await userEvent.click(within(rowOf('203.0.113.15')).getByText('203.0.113.15'));
    await waitFor(() => expect(view.location().pathname).toBe('/audits/a-15/show'));

    const diff = await screen.findByRole('table', { name: 'Changes' });
    expect(
      within(diff)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Field', 'Before', 'After']);
    // One row per changed field; "description" did not change and is left out.
    expect(
      within(diff)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['name', 'isActive']);
    expect(within(diff).getAllByRole('row')).toHaveLength(3);
    expect(within(diff).getByRole('rowheader', { name: 'name' }).closest('tr')).toHaveTextContent('nameOld 15New 15');
    expect(within(diff).getByRole('rowheader', { name: 'isActive' }).closest('tr')).toHaveTextContent('isActivetruefalse');
    expect(screen.getByText('rec-15')).toBeInTheDocument();
    expect(screen.getByText('203.0.113.15')).toBeInTheDocument();
    // No edit or delete on an audit entry.
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.queryByRole('button', { name: /delete/i })).toBeNull();
    // Page 2 was still within the list's first rows: either way, no one-route was called.
    expect(api.seen(/GET \/system\/audits\/a-/)).toEqual([]);
  });

  it('a creation shows only its new values', async () => {
    signIn();
    auditApi(entries(6));
    const view = renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    await userEvent.click(within(rowOf('203.0.113.1')).getByText('203.0.113.1'));
    await waitFor(() => expect(view.location().pathname).toBe('/audits/a-1/show'));
    const diff = await screen.findByRole('table', { name: 'Changes' });
    expect(
      within(diff)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['name', 'workspaceIds']);
    expect(within(diff).getByRole('rowheader', { name: 'name' }).closest('tr')).toHaveTextContent('name—Made 1');
    expect(within(diff).getByRole('rowheader', { name: 'workspaceIds' }).closest('tr')).toHaveTextContent(
      /workspaceIds—\[\s*"w-1",\s*"w-2"\s*\]/,
    );
  });
});

describe('system audits: a row beyond the newest 1000 entries', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('opens with the row the list gave, though the list read by the fallback does not hold it', async () => {
    signIn();
    // 1005 entries: the list's fallback for one record reads the newest 1000 only.
    const api = auditApi(entries(1005));
    const view = renderDeclared([audits], { path: '/audits?filter=%7B%22search%22%3A%22rec-1002%22%7D' });
    await loaded('203.0.113.1002');
    expect(api.calls.filter((call) => call.method === 'POST').at(-1)).toEqual({
      method: 'POST',
      path: '/system/audits/filter/0/10',
      body: { search: 'rec-1002', offset: 0, limit: 10 },
    });
    await userEvent.click(within(rowOf('203.0.113.1002')).getByText('203.0.113.1002'));
    await waitFor(() => expect(view.location().pathname).toBe('/audits/a-1002/show'));
    const diff = await screen.findByRole('table', { name: 'Changes' });
    expect(within(diff).getByRole('rowheader', { name: 'name' }).closest('tr')).toHaveTextContent('nameOld 1002New 1002');
    // Still there a moment later: no failed lookup sent the user back to the list.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(view.location().pathname).toBe('/audits/a-1002/show');
    expect(screen.getByText('rec-1002')).toBeInTheDocument();
  });

  it('an entry opened by its URL alone is looked up in the list', async () => {
    signIn();
    const api = auditApi(entries(12));
    renderDeclared([audits], { path: '/audits/a-8/show' });
    const diff = await screen.findByRole('table', { name: 'Changes' });
    expect(within(diff).getByRole('rowheader', { name: 'name' }).closest('tr')).toHaveTextContent('nameGone 8—');
    expect(api.seen(/GET \/system\/audits\/\d/)).toEqual(['GET /system/audits/0/1000']);
  });
});

describe('system audits: permissions', { timeout: RESOURCE_TIMEOUT_MS }, () => {
  it('a holder of audits/read sees the list and its export', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'audits', actions: ['read'] }]);
    auditApi(entries(3));
    renderDeclared([audits], { path: '/audits' });
    await loaded('203.0.113.1');
    expect(await screen.findByRole('button', { name: 'Export' })).toBeInTheDocument();
  });

  it('the access events policy alone keeps one out: no rows, cards or choices', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'accessEvents', actions: ['read'] }]);
    const api = auditApi(entries(3));
    const view = renderDeclared([audits], { path: '/audits' });
    await waitFor(() => expect(view.location().pathname).toBe('/access-denied'));
    expect(api.seen(/cards|props|filter/)).toEqual([]);
    expect(screen.queryByText('203.0.113.1', { selector: 'td, td *' })).toBeNull();
  });
});
