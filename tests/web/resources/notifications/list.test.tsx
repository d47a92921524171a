import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '../../../../resources/notifications';
import type { SessionUser } from '../../../../providers/types';
import { adminUser, FRAMEWORK_TIMEOUT_MS, mockPolicies, renderDeclared, signIn } from '../../framework/harness';
import { ADA, BOB, notificationsApi } from './notificationsApi';
import { headers, rowOf } from '../../listPage';

const ada: SessionUser = { ...adminUser, id: ADA };
const plainAda: SessionUser = { ...ada, isAdmin: false, accessToken: 'token-ada', token: 'token-ada' };

function renderNotifications(path = '/notifications', as: SessionUser = ada) {
  signIn(as);
  return renderDeclared([notifications], { path });
}

async function loadedTable(text: string): Promise<HTMLElement> {
  const cell = await screen.findByText(text, { selector: 'td, td *' });
  return cell.closest('table')!;
}

const FILTER = /^POST \/notification\/filter\//;
const FILTER_PATH = 'POST /notification/filter/0/10/DESC/createdAt';

describe('the notifications list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it("calls GET /notification/0/10 and shows the caller's notifications, unread ones marked", async () => {
    const api = notificationsApi();
    renderNotifications();
    const table = await loadedTable('Your role changed');
    expect(headers(table)).toEqual(['Title', 'Message', 'Type', 'Status', 'Sent by', 'Received']);
    const role = rowOf('Your role changed');
    expect(within(role).getByText('Unread').closest('.MuiChip-root')).not.toBeNull();
    expect(role).toHaveTextContent('You are now an Editor');
    expect(role).toHaveTextContent('Bob Builder');
    // The type is named as the options name it.
    expect(role).toHaveTextContent('Role changed');
    expect(within(rowOf('Cy joined')).getByText('System')).toBeInTheDocument();
    expect(within(rowOf('Hello from Acme')).getByText('Read')).toBeInTheDocument();
    // Whose it is: a hidden column (offered by the columns button).
    expect(screen.queryByText('Ada Admin', { selector: 'td, td *' })).toBeNull();
    expect(api.seen(/^GET \/notification\/\d/)).toEqual(['GET /notification/0/10']);
    expect(api.seen(FILTER)).toEqual([]);
  });

  it('the status filter sends { status } to the filter path sorted DESC by createdAt', async () => {
    const api = notificationsApi();
    renderNotifications();
    await loadedTable('Your role changed');
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Read' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ status: 'read' }));
    expect(new Set(api.seen(FILTER))).toEqual(new Set([FILTER_PATH]));
    await waitFor(() => expect(screen.queryByText('Your role changed', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Hello from Acme', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('the user, type and sender filters send ids and type names', async () => {
    const api = notificationsApi({ seesEveryone: true });
    renderNotifications();
    await loadedTable('Your job stopped');
    await userEvent.click(screen.getByRole('combobox', { name: 'User' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bob Builder' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ user: [BOB] }));
    await waitFor(() => expect(screen.queryByText('Your role changed', { selector: 'td, td *' })).toBeNull());

    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Job failed' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ user: [BOB], type: ['job_failed'] }));

    await userEvent.click(screen.getByRole('combobox', { name: 'Sent by' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Bob Builder' }));
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ user: [BOB], type: ['job_failed'], createdBy: [BOB] }));
    expect(new Set(api.seen(FILTER))).toEqual(new Set([FILTER_PATH]));
  });

  it('the dates send startDate and endDate; the search with them goes in the filter body', async () => {
    const api = notificationsApi();
    renderNotifications();
    await loadedTable('Your role changed');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-15');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-15' }));
    await userEvent.type(screen.getByLabelText('To'), '2026-11-30');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-15', endDate: '2026-11-30' }));
    await waitFor(() => expect(screen.queryByText('Hello from Acme', { selector: 'td, td *' })).toBeNull());
    await userEvent.type(screen.getByPlaceholderText('Search notifications'), 'editor');
    await waitFor(() => expect(api.bodiesOf(FILTER).at(-1)).toEqual({ startDate: '2026-11-15', endDate: '2026-11-30', search: 'editor' }));
    await waitFor(() => expect(screen.queryByText('Cy joined', { selector: 'td, td *' })).toBeNull());
    expect(api.seen(/search/)).toEqual([]);
  });

  it('the search alone calls GET /notification/search/0/10/{text}', async () => {
    const api = notificationsApi();
    renderNotifications();
    await loadedTable('Your role changed');
    await userEvent.type(screen.getByPlaceholderText('Search notifications'), 'welcome aboard');
    await waitFor(() => expect(api.seen(/search/).at(-1)).toBe('GET /notification/search/0/10/welcome aboard'));
    await waitFor(() => expect(screen.queryByText('Your role changed', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Hello from Acme', { selector: 'td, td *' })).toBeInTheDocument();
    expect(api.seen(FILTER)).toEqual([]);
  });

  it('sorting by a column puts the sort in the filter path', async () => {
    const api = notificationsApi();
    renderNotifications();
    const table = await loadedTable('Your role changed');
    await userEvent.click(within(table).getByRole('button', { name: /sort by title/i }));
    await waitFor(() => expect(api.seen(FILTER)).toEqual(['POST /notification/filter/0/10/ASC/title']));
  });

  it('"Mark read" sends PUT /notification/count { notificationId } and the row turns read', async () => {
    const api = notificationsApi();
    renderNotifications();
    await loadedTable('Your role changed');
    // Only unread ones can be marked.
    expect(within(rowOf('Hello from Acme')).queryByRole('button', { name: /^Mark read/ })).toBeNull();
    await userEvent.click(within(rowOf('Your role changed')).getByRole('button', { name: 'Mark read: Your role changed' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /notification/count']));
    expect(api.bodiesOf(/^PUT/)).toEqual([{ notificationId: 'n-role' }]);
    expect(await screen.findByText('Notification marked as read')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf('Your role changed')).getByText('Read')).toBeInTheDocument());
    expect(within(rowOf('Your role changed')).queryByRole('button', { name: /^Mark read/ })).toBeNull();
    expect(within(rowOf('Cy joined')).getByText('Unread')).toBeInTheDocument();
  });

  it('"Mark all read" sends PUT /notification; every row turns read and the button rests', async () => {
    const api = notificationsApi();
    renderNotifications();
    await loadedTable('Your role changed');
    const markAll = screen.getByRole('button', { name: 'Mark all read' });
    await waitFor(() => expect(markAll).toBeEnabled());
    await userEvent.click(markAll);
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /notification']));
    expect(await screen.findByText('2 notifications marked as read')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Unread', { selector: 'td *' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark all read' })).toBeDisabled());
  });

  it('clicking a notification marks it read and follows its link', async () => {
    const api = notificationsApi();
    const view = renderNotifications();
    await loadedTable('Your role changed');
    await userEvent.click(screen.getByRole('button', { name: 'Your role changed' }));
    await waitFor(() => expect(view.location().pathname).toBe('/roles/r-editor/show'));
    expect(api.bodiesOf(/^PUT \/notification\/count/)).toEqual([{ notificationId: 'n-role' }]);
    expect(api.rows.find((row) => row.id === 'n-role')!.status).toBe('read');
  });

  it("an admin reading everyone's cannot mark another user's notification", async () => {
    notificationsApi({ seesEveryone: true });
    renderNotifications();
    await loadedTable('Your job stopped');
    expect(within(rowOf('Your job stopped')).queryByRole('button', { name: /^Mark read/ })).toBeNull();
    expect(within(rowOf('Cy joined')).getByRole('button', { name: 'Mark read: Cy joined' })).toBeInTheDocument();
  });

  it('someone without the notifications policy still reads their own, with the filter choices', async () => {
    mockPolicies([]);
    const api = notificationsApi();
    renderNotifications('/notifications', plainAda);
    await loadedTable('Your role changed');
    await userEvent.click(screen.getByRole('combobox', { name: 'Type' }));
    expect(await screen.findByRole('option', { name: 'Invitation accepted' })).toBeInTheDocument();
    expect(api.seen(/options/)).toEqual(['GET /notification/options']);
  });
});
