import { act, configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { Admin, memoryStore, Resource, TestMemoryRouter } from 'react-admin';
import type { Location } from 'react-router';
import { declaredProviders } from '../../../src/framework/providers';
import { notifications } from '../../../resources/notifications';
import { BELL_POLL_MS } from '../../../resources/notifications/api';
import { NotificationBell } from '../../../src/app/layout/NotificationBell';
import { resourceProps } from '../../../src/framework/resourceProps';
import { adminUser, signIn } from '../framework/harness';
import { ADA, notification, notificationsApi } from '../resources/notifications/notificationsApi';

configure({ asyncUtilTimeout: 8000 });
const TIMEOUT_MS = 30_000;

/** The console's frame reduced to what matters here: the bell above the page. */
function BellLayout({ children }: { children?: ReactNode }) {
  return (
    <>
      <header>
        <NotificationBell />
      </header>
      <main>{children}</main>
    </>
  );
}

function renderConsole(path = '/dashboard') {
  signIn({ ...adminUser, id: ADA });
  const declarations = [notifications];
  let current: Location | null = null;
  render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(location) => (current = location)}>
      <Admin
        disableTelemetry
        requireAuth
        loginPage={false}
        store={memoryStore()}
        layout={BellLayout}
        dashboard={() => <p>Dashboard</p>}
        {...declaredProviders(declarations)}
      >
        {declarations.map((declaration) => (
          <Resource key={declaration.name} {...resourceProps(declaration)} />
        ))}
      </Admin>
    </TestMemoryRouter>,
  );
  return { location: () => current! };
}

function bell(): HTMLElement {
  // hidden: while the popover is open the rest of the page is hidden from the accessibility tree.
  return screen.getByRole('button', { name: /^Notifications/, hidden: true });
}

async function badgeShows(text: string) {
  await waitFor(() => expect(screen.getByTestId('notification-badge')).toHaveTextContent(text));
}

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  // Fired at the document and bubbling to the window, as a browser does (react-query listens on the window).
  document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
}

describe('the notification bell', { timeout: TIMEOUT_MS }, () => {
  afterEach(() => {
    vi.useRealTimers();
    setVisibility('visible');
  });

  it('shows the unread count of GET /notifications/count', async () => {
    const api = notificationsApi();
    renderConsole();
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications: 2 unread'));
    await badgeShows('2');
    expect(api.seen(/count/)).toEqual(['GET /notifications/count']);
    // Nothing else until the bell is opened.
    expect(api.seen(/^GET \/notifications$/)).toEqual([]);
  });

  it('shows 99+ past 99', async () => {
    const many = Array.from({ length: 150 }, (_, index) => notification({ id: `n-${index}`, title: `Note ${index}` }));
    notificationsApi({ initial: many });
    renderConsole();
    await badgeShows('99+');
    expect(bell()).toHaveAccessibleName('Notifications: 150 unread');
  });

  it('asks again every 30 s while the tab is visible, not while it is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const api = notificationsApi();
    renderConsole();
    await badgeShows('2');
    api.rows.push(notification({ id: 'n-new', title: 'Table loaded', createdAt: '2026-11-22T10:00:00.000Z' }));

    await act(() => vi.advanceTimersByTimeAsync(BELL_POLL_MS - 2_000));
    expect(api.seen(/count/)).toHaveLength(1);
    expect(screen.getByTestId('notification-badge')).toHaveTextContent('2');
    await act(() => vi.advanceTimersByTimeAsync(2_500));
    await badgeShows('3');
    expect(api.seen(/count/)).toHaveLength(2);

    // In the background the polling rests; back in front, the bell asks at once.
    act(() => setVisibility('hidden'));
    api.rows.push(notification({ id: 'n-newer', title: 'Another', createdAt: '2026-11-22T11:00:00.000Z' }));
    await act(() => vi.advanceTimersByTimeAsync(BELL_POLL_MS * 3));
    expect(api.seen(/count/)).toHaveLength(2);
    act(() => setVisibility('visible'));
    await badgeShows('4');
    expect(api.seen(/count/)).toHaveLength(3);
  });

  it('opens the latest in a popover; marking one read there lowers the count at once', async () => {
    const api = notificationsApi();
    renderConsole();
    await badgeShows('2');
    await userEvent.click(bell());
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(popover).findByText('Your role changed');
    expect(api.seen(/^GET \/notifications$/)).toEqual(['GET /notifications']);
    const items = [...popover.querySelectorAll('[data-notification]')].map((item) => item.getAttribute('data-notification'));
    expect(items).toEqual(['n-role', 'n-joined', 'n-old']);
    expect(within(popover).getByRole('link', { name: 'See all notifications' })).toHaveAttribute('href', '/notifications');

    await userEvent.click(within(popover).getByRole('button', { name: 'Mark read: Your role changed' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/notification\/count/)).toEqual([{ notificationId: 'n-role' }]));
    await badgeShows('1');
    await waitFor(() => expect(popover.querySelector('[data-notification="n-role"]')).not.toHaveAttribute('data-unread'));
    expect(within(popover).queryByRole('button', { name: 'Mark read: Your role changed' })).toBeNull();
    expect(api.seen(/count$/).filter((line) => line.startsWith('GET'))).toHaveLength(2);
  });

  it('"Mark all read" in the popover sends PUT /notification and clears the badge', async () => {
    const api = notificationsApi();
    renderConsole();
    await badgeShows('2');
    await userEvent.click(bell());
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await within(popover).findByText('Your role changed');
    await userEvent.click(within(popover).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /notification']));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications'));
    // The badge goes, its last number with it (a hidden MUI badge would keep it as text).
    expect(screen.queryByTestId('notification-badge')).toBeNull();
    expect(bell()).toHaveTextContent('');
  });

  it('a notification opened from the popover is marked read and its link followed', async () => {
    const api = notificationsApi();
    const view = renderConsole();
    await badgeShows('2');
    await userEvent.click(bell());
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    await userEvent.click(await within(popover).findByText('Cy joined'));
    await waitFor(() => expect(view.location().pathname).toBe('/users'));
    expect(api.bodiesOf(/^PUT \/notification\/count/)).toEqual([{ notificationId: 'n-joined' }]);
    await badgeShows('1');
  });

  it('follows a mark-read made anywhere else in the console, without a reload', async () => {
    const api = notificationsApi();
    renderConsole('/notifications');
    await badgeShows('2');
    const row = (await screen.findByText('Your role changed', { selector: 'td, td *' })).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: 'Mark read: Your role changed' }));
    await waitFor(() => expect(api.seen(/^PUT/)).toEqual(['PUT /notification/count']));
    await badgeShows('1');
    await userEvent.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Notifications'));
  });
});
