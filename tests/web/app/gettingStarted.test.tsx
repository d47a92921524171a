import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Dashboard } from '../../../src/app/dashboard/Dashboard';
import { AccessDeniedPage } from '../../../src/framework/AccessDeniedPage';
import { server } from '../msw';
import { admin, API, mockPreferencesServer, mockQuietCharts, plainUser, signIn } from './fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from './render';

type Steps = { key: string; done: boolean }[];

/** The dashboard's calls answering quietly, the checklist's steps and the dismissal as given; dismissals are recorded. */
function mockChecklist(steps: Steps, dismissed = false) {
  const saved: unknown[] = [];
  mockPreferencesServer();
  mockQuietCharts();
  server.use(
    http.get(`${API}/dashboard/topCards`, () => HttpResponse.json({ message: 'Dashboard cards', data: { cards: [] } })),
    http.get(`${API}/admin/dashboard/cards`, () => HttpResponse.json({ message: 'Admin dashboard cards', data: { cards: [] } })),
    http.get(`${API}/users/active`, () => HttpResponse.json({ message: 'Active users', users: [] })),
    http.get(`${API}/company/getting-started`, () => HttpResponse.json({ message: 'Getting started', data: { steps } })),
    http.get(`${API}/user/preferences/gettingStarted`, () =>
      HttpResponse.json({ message: 'Preference', data: { gettingStarted: dismissed ? { dismissed: true } : null } }),
    ),
    http.put(`${API}/user/preferences/gettingStarted`, async ({ request }) => {
      saved.push(await request.json());
      return HttpResponse.json({ message: 'Preference saved', data: {} });
    }),
  );
  return saved;
}

const NEW_COMPANY: Steps = [
  { key: 'connection', done: true },
  { key: 'table', done: false },
  { key: 'rules', done: false },
  { key: 'workflow', done: false },
  { key: 'colleague', done: false },
];

describe('the getting-started checklist', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('ticks the steps the company took, links the others to where they are done, and hides when asked', async () => {
    signIn(admin);
    const saved = mockChecklist(NEW_COMPANY);
    renderInConsole(<Dashboard />);
    const checklist = await screen.findByRole('region', { name: 'Get started' }, { timeout: 10_000 });
    expect(checklist).toHaveTextContent('1 of 5 done');
    // Done: no link; to do: a link to where it is done.
    expect(within(checklist).queryByRole('link', { name: 'Connect a source' })).not.toBeInTheDocument();
    expect(within(checklist).getByText('Connect a source')).toBeInTheDocument();
    expect(within(checklist).getByRole('link', { name: 'Register a table' })).toHaveAttribute('href', '/tables/create');
    expect(within(checklist).getByRole('link', { name: 'Create a workflow' })).toHaveAttribute('href', '/workflows/create');
    expect(within(checklist).getByRole('link', { name: 'Invite a colleague' })).toHaveAttribute('href', '/users/create');

    await userEvent.click(within(checklist).getByRole('button', { name: 'Hide this checklist' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument());
    await waitFor(() => expect(saved).toEqual([{ value: { dismissed: true } }]));
  });

  it('is not shown once every step is done, nor when dismissed before', async () => {
    signIn(admin);
    mockChecklist(NEW_COMPANY.map((step) => ({ ...step, done: true })));
    const { unmount } = renderInConsole(<Dashboard />);
    await screen.findByRole('region', { name: 'What your company holds' });
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
    unmount();

    mockChecklist(NEW_COMPANY, true);
    renderInConsole(<Dashboard />);
    await screen.findByRole('region', { name: 'What your company holds' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
  });

  it('is not offered to a user who is not an admin', async () => {
    signIn(plainUser);
    mockChecklist(NEW_COMPANY);
    renderInConsole(<Dashboard />);
    await screen.findByRole('region', { name: 'What your company holds' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByRole('region', { name: 'Get started' })).not.toBeInTheDocument();
  });
});

describe('a page the role does not open', { timeout: RENDER_TIMEOUT_MS }, () => {
  it("says so and names the company's admins to ask", async () => {
    signIn(plainUser);
    server.use(
      http.get(`${API}/company/admins`, () =>
        HttpResponse.json({ message: "The company's admins", data: [{ name: 'Ada Admin', email: 'admin@acme.test' }] }),
      ),
    );
    renderInConsole(<AccessDeniedPage />, { path: '/users' });
    expect(await screen.findByRole('heading', { name: 'You cannot open this page' })).toBeInTheDocument();
    const admins = await screen.findByRole('list', { name: "Your company's admins" });
    expect(within(admins).getByText('Ada Admin')).toBeInTheDocument();
    expect(within(admins).getByRole('link', { name: 'admin@acme.test' })).toHaveAttribute('href', 'mailto:admin@acme.test');
  });

  it('still says so in general words against a server without the call', async () => {
    signIn(plainUser);
    renderInConsole(<AccessDeniedPage />, { path: '/users' });
    expect(await screen.findByText(/Ask your company's administrator to give it to you/)).toBeInTheDocument();
  });
});
