import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { localStorageStore, type Store } from 'react-admin';
import { consoleMethods } from '../../../providers/dataProvider';
import {
  COLUMN_CHOICES_OFFLINE_KEY,
  loadColumnChoices,
  orderFromRanks,
  ranksFromOrder,
} from '../../../src/framework/columns/columnChoices';
import { COLUMN_SAVE_DELAY_MS } from '../../../src/framework/columns/useColumnChoices';
import { server } from '../msw';
import {
  API,
  columnsServer,
  type ColumnsServer,
  FRAMEWORK_TIMEOUT_MS,
  plainUser,
  mockPolicies,
  renderDeclared,
  signIn,
  widget,
  widgetApi,
  widgets,
} from './harness';
import { listToolbarShown } from '../listPage';

async function headers(): Promise<string[]> {
  const table = (await screen.findByText('Widget 0001', { selector: 'td, td *' })).closest('table')!;
  await listToolbarShown();
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '')
    .filter((text) => text !== '' && text !== 'Actions');
}

async function startSession(store: Store, choices: Record<string, unknown>): Promise<ColumnsServer> {
  const columns = columnsServer(choices);
  await loadColumnChoices(store, [widgets], consoleMethods);
  return columns;
}

async function openColumnsMenu() {
  await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
  return screen.findByRole('presentation');
}

const tenantDefault = { hidden: ['email', 'kind', 'tags'], order: ['createdAt', 'name'] };

/**
 * The console's Store is react-admin's localStorage one (as in MainApp): the session's choices
 * are written into it before and while the lists render.
 */
describe('column choices', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it("ranks and orders convert both ways, the declaration's order being no order", () => {
    const sources = ['a', 'b', 'c', 'd'];
    expect(ranksFromOrder(sources, ['c', 'a'])).toEqual([2, 0, 1, 3]);
    expect(orderFromRanks(sources, [2, 0, 1, 3])).toEqual(['c', 'a', 'b', 'd']);
    expect(orderFromRanks(sources, [1, 0])).toEqual(['b', 'a', 'c', 'd']);
    expect(ranksFromOrder(sources, ['a', 'b'])).toBeUndefined();
    expect(orderFromRanks(sources, [0, 1, 2, 3, 4])).toBeNull();
    expect(ranksFromOrder(sources, ['zz', 'd'])).toEqual([3, 0, 1, 2]);
  });

  it('at the start of a session the Store gets the user choice, else the tenant default, else the declaration', async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    const columns = await startSession(store, { widgets: { tenant: tenantDefault, user: null } });
    renderDeclared([widgets], { path: '/widgets', store });
    expect(await headers()).toEqual(['Created', 'Name', 'Condition', 'Size', 'Active']);
    // Loaded choices are not saved back.
    await new Promise((resolve) => setTimeout(resolve, COLUMN_SAVE_DELAY_MS + 300));
    expect(columns.puts).toEqual([]);
  });

  it("the user's own choice wins over the company default", async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    await startSession(store, {
      widgets: { tenant: tenantDefault, user: { hidden: ['status', 'isActive', 'createdAt', 'size', 'tags'], order: ['email'] } },
    });
    renderDeclared([widgets], { path: '/widgets', store });
    expect(await headers()).toEqual(['Email', 'Name', 'Kind']);
  });

  it('with nothing on the server the declaration decides (hidden-by-default columns stay hidden)', async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    // A choice left in this browser by an earlier session, which the server no longer has.
    store.setItem('widgets.datatable', ['name']);
    await startSession(store, {});
    renderDeclared([widgets], { path: '/widgets', store });
    expect(await headers()).toEqual(['Name', 'Email', 'Kind', 'Condition', 'Active', 'Created']);
  });

  it("a change in the columns menu is saved as the user's choice (once, after a pause)", async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    const columns = await startSession(store, {});
    renderDeclared([widgets], { path: '/widgets', store });
    await headers();
    const menu = await openColumnsMenu();
    // Two changes in a row (within the save delay): one save, of both.
    fireEvent.click(within(menu).getByRole('switch', { name: 'Kind' }));
    fireEvent.click(within(menu).getByRole('switch', { name: 'Size' }));
    await waitFor(() => expect(columns.puts).toHaveLength(1), { timeout: COLUMN_SAVE_DELAY_MS + 3000 });
    expect(columns.puts[0]).toEqual({ listKey: 'widgets', scope: 'user', hidden: ['tags', 'kind'], order: null });
    await new Promise((resolve) => setTimeout(resolve, COLUMN_SAVE_DELAY_MS + 300));
    expect(columns.puts).toHaveLength(1);
    await userEvent.keyboard('{Escape}');
    expect(await headers()).toEqual(['Name', 'Email', 'Condition', 'Size', 'Active', 'Created']);
  });

  it('an admin saves the current columns as the default for everyone', async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    const columns = await startSession(store, { widgets: { tenant: null, user: { hidden: ['email', 'tags'], order: null } } });
    renderDeclared([widgets], { path: '/widgets', store });
    await headers();
    // Until the menu first opens, only the place of its column list is drawn (not its actions).
    expect(document.getElementById('widgets.datatable-columnsSelector')).not.toBeNull();
    expect(screen.queryByText('Save as default for everyone')).toBeNull();
    const menu = await openColumnsMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Save as default for everyone' }));
    await waitFor(() => expect(columns.puts).toEqual([{ listKey: 'widgets', scope: 'tenant', hidden: ['email', 'tags'], order: null }]));
    expect(await screen.findByRole('alert')).toHaveTextContent('Saved as the default columns for everyone');
  });

  it('someone who is not an admin is not offered the company default', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'gadgets', actions: ['read', 'update'] }]);
    widgetApi([widget(1)]);
    const store = localStorageStore();
    await startSession(store, {});
    renderDeclared([widgets], { path: '/widgets', store });
    await headers();
    const menu = await openColumnsMenu();
    expect(within(menu).getByRole('menuitem', { name: 'Reset to the company default' })).toBeInTheDocument();
    expect(within(menu).queryByRole('menuitem', { name: 'Save as default for everyone' })).toBeNull();
  });

  it("reset drops the user's choice on the server in one click and shows the company default", async () => {
    signIn();
    widgetApi([widget(1)]);
    const store = localStorageStore();
    const columns = await startSession(store, { widgets: { tenant: tenantDefault, user: { hidden: ['tags'], order: null } } });
    renderDeclared([widgets], { path: '/widgets', store });
    expect(await headers()).toEqual(['Name', 'Email', 'Kind', 'Condition', 'Size', 'Active', 'Created']);
    const menu = await openColumnsMenu();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Reset to the company default' }));
    await waitFor(() => expect(columns.deletes).toEqual(['widgets?scope=user']));
    expect(await headers()).toEqual(['Created', 'Name', 'Condition', 'Size', 'Active']);
    await new Promise((resolve) => setTimeout(resolve, COLUMN_SAVE_DELAY_MS + 300));
    expect(columns.puts).toEqual([]);
  });

  it('a server without the column routes (404) leaves the columns working in this browser only', async () => {
    signIn();
    widgetApi([widget(1)]);
    let calls = 0;
    server.use(
      http.all(`${API}/lists/*`, () => {
        calls += 1;
        return HttpResponse.json({ message: 'Not Found' }, { status: 404 });
      }),
    );
    const store = localStorageStore();
    await loadColumnChoices(store, [widgets], consoleMethods);
    expect(store.getItem(COLUMN_CHOICES_OFFLINE_KEY)).toBe(true);
    renderDeclared([widgets], { path: '/widgets', store });
    await headers();
    const menu = await openColumnsMenu();
    await userEvent.click(within(menu).getByRole('switch', { name: 'Email' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(async () => expect(await headers()).toEqual(['Name', 'Kind', 'Condition', 'Active', 'Created']));
    await new Promise((resolve) => setTimeout(resolve, COLUMN_SAVE_DELAY_MS + 300));
    expect(calls).toBe(1);
  });
});
