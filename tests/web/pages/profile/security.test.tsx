import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { alerts } from '../../../../providers/alerts';
import { getStoredUser } from '../../../../providers/storage';
import type { SessionUser } from '../../../../providers/types';
import { users } from '../../../../resources/users';
import type { User } from '../../../../resources/users/types';
import { server } from '../../msw';
import { renderRegisteredPage } from '../renderRegisteredPage';

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

const bob: SessionUser = {
  id: 'u-bob',
  email: 'bob@acme.test',
  firstName: 'Bob',
  lastName: 'Builder',
  isAdmin: false,
  companyHostname: 'acme',
  accessToken: 'token-bob',
  token: 'token-bob',
  auth: true,
  otpEnabled: true,
  navItems: { userNavItemJson: { items: [] } },
  impersonator: null,
};

function bobRow(overrides: Partial<User> = {}): User {
  return {
    id: 'u-bob',
    email: 'bob@acme.test',
    username: 'bob',
    firstName: 'Bob',
    lastName: 'Builder',
    phone: null,
    status: 'active',
    isActive: true,
    roleId: 'r-member',
    roleName: 'Member',
    isAdmin: false,
    workspaces: [],
    otpEnabled: false,
    otpRequired: false,
    aiNotification: false,
    hasAvatar: false,
    lastLoginAt: null,
    createdAt: '2026-10-01T08:00:00.000Z',
    updatedAt: '2026-10-01T08:00:00.000Z',
    createdBy: null,
    ...overrides,
  };
}

const session = (id: string, userAgent: string, current = false) => ({
  id,
  userId: 'u-bob',
  email: 'bob@acme.test',
  userName: 'Bob Builder',
  ip: '10.0.0.1',
  userAgent,
  stage: 'full',
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-27T08:00:00.000Z',
  expiresAt: '2026-11-28T08:00:00.000Z',
  endedAt: null,
  endReason: null,
  isDeleted: false,
  active: true,
  impersonatorUserId: null,
  impersonatorEmail: null,
  current,
});

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0';

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

/** The profile and security routes of a server that has them, over one user's state. */
function securityApi(state: { otpEnabled: boolean; otpRequired?: boolean; codesLeft?: number; withCalls?: boolean }) {
  const sent: Sent[] = [];
  let status = { otpEnabled: state.otpEnabled, otpRequired: state.otpRequired ?? false, recoveryCodesLeft: state.codesLeft ?? 10 };
  let sessions = [session('s-here', CHROME, true), session('s-laptop', FIREFOX)];
  const row = bobRow({ otpEnabled: state.otpEnabled });
  server.use(
    http.get(`${API}/user/profile`, () =>
      HttpResponse.json({ message: 'Profile', user: { id: row.id, email: row.email, roleName: row.roleName }, data: row }),
    ),
    http.get(`${API}/user/profile/cards/:id/:days`, () => HttpResponse.json({ message: 'Profile cards', data: { cards: [] } })),
    http.get(`${API}/user/avatar/:id`, () => HttpResponse.json({ message: 'Avatar not found' }, { status: 404 })),
  );
  if (state.withCalls !== false) {
    server.use(
      http.get(`${API}/user/otp/status`, () => HttpResponse.json({ message: 'Two-factor status', data: status })),
      http.get(`${API}/user/sessions`, () =>
        HttpResponse.json({ message: 'Your sessions', data: { rows: sessions, count: sessions.length, countExact: true } }),
      ),
      http.delete(`${API}/user/sessions/:id`, ({ params }) => {
        sessions = sessions.filter((s) => s.id !== params.id);
        return HttpResponse.json({ message: 'The session has been ended' });
      }),
      http.post(`${API}/user/otp/disable`, async ({ request }) => {
        const body = (await request.json()) as { password: string; otp?: string; recoveryCode?: string };
        if (body.password !== 'Right-pass-1') return HttpResponse.json({ message: 'password: is not correct' }, { status: 400 });
        if (body.otp && body.otp !== '123456') return HttpResponse.json({ message: 'The code is not valid' }, { status: 400 });
        status = { ...status, otpEnabled: false, recoveryCodesLeft: 0 };
        return HttpResponse.json({ message: 'Two-factor authentication is off' });
      }),
      http.post(`${API}/user/otp/recovery-codes`, async ({ request }) => {
        const body = (await request.json()) as { password: string };
        if (body.password !== 'Right-pass-1') return HttpResponse.json({ message: 'password: is not correct' }, { status: 400 });
        status = { ...status, recoveryCodesLeft: 10 };
        const codes = Array.from({ length: 10 }, (_, i) => `abcde-fgh${'jkmnpqrstu'[i]}${'vwxyz23456'[i]}`);
        return HttpResponse.json({ message: 'New recovery codes', data: { codes } });
      }),
    );
  }
  // Added last, so it is asked first: it records every call and lets the handlers above answer.
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(API.length);
      const body = request.headers.get('content-type')?.includes('json') ? await request.clone().json() : undefined;
      sent.push({ method: request.method, path, body });
      return undefined;
    }),
  );
  return { sent, calls: (pattern: RegExp) => sent.filter((call) => pattern.test(`${call.method} ${call.path}`)) };
}

function renderProfile() {
  return renderRegisteredPage('/profile', { user: bob, resources: [users] });
}

async function securitySection() {
  return screen.findByRole('region', { name: 'Security' });
}

afterEach(() => alerts.clear());

describe("the profile's Security section", { timeout: TIMEOUT_MS }, () => {
  it('shows two-factor off with "Set up" leading to the set-up screen', async () => {
    securityApi({ otpEnabled: false });
    renderProfile();
    const section = await securitySection();
    const twoFactor = await within(section).findByRole('region', { name: 'Two-factor authentication' });
    await waitFor(() => expect(within(twoFactor).getByTestId('two-factor-state')).toHaveTextContent('Off'));
    expect(within(twoFactor).getByRole('link', { name: 'Set up' })).toHaveAttribute('href', '/auth/register-2fa');
    expect(within(twoFactor).queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
  });

  it('turns two-factor off with the password and a current code; a wrong password is said on its field', async () => {
    const api = securityApi({ otpEnabled: true, codesLeft: 7 });
    renderProfile();
    const section = await securitySection();
    const twoFactor = await within(section).findByRole('region', { name: 'Two-factor authentication' });
    expect(await within(twoFactor).findByText('7 recovery codes left')).toBeInTheDocument();
    expect(within(twoFactor).getByTestId('two-factor-state')).toHaveTextContent('On');

    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor authentication?' });
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Wrong-pass-1');
    await userEvent.type(within(dialog).getByLabelText('Code'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    expect(await within(dialog).findByText('is not correct')).toBeInTheDocument();
    expect(api.calls(/^POST \/user\/otp\/disable$/).map((c) => c.body)).toEqual([{ password: 'Wrong-pass-1', otp: '123456' }]);

    const password = within(dialog).getByLabelText('Password');
    await userEvent.clear(password);
    await userEvent.type(password, 'Right-pass-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(within(twoFactor).getByTestId('two-factor-state')).toHaveTextContent('Off'));
    expect(within(twoFactor).getByRole('link', { name: 'Set up' })).toBeInTheDocument();
    expect(getStoredUser()?.otpEnabled).toBe(false);
  });

  it('sends a typed recovery code as recoveryCode', async () => {
    const api = securityApi({ otpEnabled: true });
    renderProfile();
    const twoFactor = await within(await securitySection()).findByRole('region', { name: 'Two-factor authentication' });
    await userEvent.click(await within(twoFactor).findByRole('button', { name: 'Turn off' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Right-pass-1');
    await userEvent.type(within(dialog).getByLabelText('Code'), 'abcde-fghjk');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn off' }));
    await waitFor(() => expect(api.calls(/^POST \/user\/otp\/disable$/)).toHaveLength(1));
    expect(api.calls(/^POST \/user\/otp\/disable$/)[0].body).toEqual({ password: 'Right-pass-1', recoveryCode: 'abcde-fghjk' });
  });

  it('regenerates the recovery codes after the password and shows the ten new ones once', async () => {
    const api = securityApi({ otpEnabled: true, codesLeft: 2 });
    renderProfile();
    const twoFactor = await within(await securitySection()).findByRole('region', { name: 'Two-factor authentication' });
    expect(await within(twoFactor).findByText('2 recovery codes left')).toBeInTheDocument();
    await userEvent.click(within(twoFactor).getByRole('button', { name: 'Regenerate recovery codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'New recovery codes' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate recovery codes' }));
    expect(await within(dialog).findByText('Enter your password')).toBeInTheDocument();
    expect(api.calls(/recovery-codes/)).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText('Password'), 'Right-pass-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Regenerate recovery codes' }));
    const list = await within(dialog).findByRole('list', { name: 'Recovery codes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(10);
    expect(list).toHaveTextContent('abcde-fghjv');
    await userEvent.click(within(dialog).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await within(twoFactor).findByText('10 recovery codes left')).toBeInTheDocument();
  });

  it('lists the signed-in sessions, marks this one, and ends another after a confirmation', async () => {
    const api = securityApi({ otpEnabled: false });
    renderProfile();
    const sessions = await within(await securitySection()).findByRole('region', { name: 'Signed-in sessions' });
    const rows = await within(sessions).findAllByTestId('own-session');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Chrome · Linux');
    expect(within(rows[0]).getByText('This session')).toBeInTheDocument();
    expect(within(rows[0]).queryByRole('button')).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Firefox · Windows');
    await userEvent.click(within(rows[1]).getByRole('button', { name: 'End the session on Firefox · Windows' }));
    const confirm = await screen.findByRole('dialog', { name: 'End this session?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'End' }));
    await waitFor(() => expect(within(sessions).getAllByTestId('own-session')).toHaveLength(1));
    expect(api.calls(/^DELETE /).map((c) => c.path)).toEqual(['/user/sessions/s-laptop']);
  });

  it('against a server without the security calls, reads two-factor from the profile and leaves the sessions out', async () => {
    securityApi({ otpEnabled: true, withCalls: false });
    renderProfile();
    const section = await securitySection();
    const twoFactor = await within(section).findByRole('region', { name: 'Two-factor authentication' });
    await waitFor(() => expect(within(twoFactor).getByTestId('two-factor-state')).toHaveTextContent('On'));
    expect(within(twoFactor).queryByRole('button', { name: 'Turn off' })).not.toBeInTheDocument();
    expect(within(section).queryByRole('region', { name: 'Signed-in sessions' })).not.toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Change password' })).toBeInTheDocument();
  });
});
