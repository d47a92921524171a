import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { sessionUser, storedUser } from '../fixtures';
import { defineChunk } from '../../../src/shell/lazyChunk';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field, fieldError } from './helpers';

async function fillAndSubmit(user = userEvent.setup(), values = { email: 'ada@acme.test', password: 'secret-123456', host: 'acme' }) {
  await screen.findByRole('heading', { name: 'Sign in' });
  await user.type(field('Email'), values.email);
  await user.type(field('Password'), values.password);
  await user.clear(field('Company host name'));
  await user.type(field('Company host name'), values.host);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

function answerSignIn(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/v1/signin', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

describe('sign-in screen', () => {
  it('signs in and goes to the first navigation URL (auth, no OTP)', async () => {
    const bodies = answerSignIn(() => HttpResponse.json({ message: 'ok', user: sessionUser() }));
    const { location } = renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
    expect(bodies).toEqual([{ email: 'ada@acme.test', password: 'secret-123456', companyHostname: 'acme' }]);
    expect(storedUser()).toMatchObject({ auth: true });
  });

  it('fetches the console while the credentials are checked', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'nope' }, { status: 401 }));
    const importMain = vi.fn(async () => ({ default: () => null }));
    renderConsole('/auth/signin', { main: defineChunk('main', importMain) });
    await fillAndSubmit();
    await screen.findByRole('alert');
    expect(importMain).toHaveBeenCalledTimes(1);
  });

  it('starts loading the console once the form is drawn and the browser is idle, before anything is typed', async () => {
    // Like the browser's: a cancelled callback never runs, so a form drawn again is idle once.
    const idle = new Map<number, () => void>();
    let lastId = 0;
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
      idle.set(++lastId, callback);
      return lastId;
    });
    vi.stubGlobal('cancelIdleCallback', (id: number) => idle.delete(id));
    try {
      const importMain = vi.fn(async () => ({ default: () => null }));
      renderConsole('/auth/signin', { main: defineChunk('main', importMain) });
      await screen.findByRole('heading', { name: 'Sign in' });
      expect(importMain).not.toHaveBeenCalled();
      expect(idle.size).toBe(1);
      const pending = [...idle.values()];
      idle.clear();
      pending.forEach((callback) => callback());
      expect(importMain).toHaveBeenCalledTimes(1);
      // Typing then submitting loads nothing more.
      answerSignIn(() => HttpResponse.json({ message: 'nope' }, { status: 401 }));
      await fillAndSubmit();
      await screen.findByRole('alert');
      expect(importMain).toHaveBeenCalledTimes(1);
    } finally {
      cleanup();
      vi.unstubAllGlobals();
    }
  });

  it('goes to /auth/verify-otp when the account has two-factor on (requireOTP)', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'ok', user: sessionUser({ auth: false, requireOTP: true }) }));
    const { location } = renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByRole('heading', { name: 'Two-factor authentication' })).toBeInTheDocument();
    expect(location()).toBe('/auth/verify-otp');
  });

  it('goes to /auth/register-2fa when two-factor must be set up (setupOTP)', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'ok', user: sessionUser({ auth: false, setupOTP: true }) }));
    server.use(
      http.get('/api/v1/user/otp/setup', () =>
        HttpResponse.json({
          message: 'ok',
          data: { secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/x', qrCodeDataUrl: 'data:image/png;base64,AAAA' },
        }),
      ),
    );
    const { location } = renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByRole('heading', { name: 'Set up two-factor authentication' })).toBeInTheDocument();
    expect(location()).toBe('/auth/register-2fa');
  });

  it('stays on sign-in otherwise, saying so', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'Account pending', user: sessionUser({ auth: false }) }));
    const { location } = renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Account pending');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(location()).toBe('/auth/signin');
    expect(storedUser()).toBeNull();
  });

  it('shows the server error as a danger alert and disables the button while the call runs', async () => {
    let release: () => void = () => undefined;
    server.use(
      http.post('/api/v1/signin', async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({ message: 'Invalid email, password or company host name' }, { status: 401 });
      }),
    );
    renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByRole('button', { name: 'Signing in…' })).toBeDisabled();
    release();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email, password or company host name');
    expect(alert).toHaveClass('alert-danger');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    expect(field('Password')).toHaveValue('');
    expect(screen.queryByRole('link', { name: 'Contact your administrator' })).not.toBeInTheDocument();
  });

  it('offers the contact-admin page for a deactivated account (403)', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'Your account is deactivated. Contact your administrator.' }, { status: 403 }));
    renderConsole('/auth/signin');
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is deactivated');
    expect(screen.getByRole('link', { name: 'Contact your administrator' })).toHaveAttribute('href', '/contact-admin');
  });

  it('checks the fields before calling the server', async () => {
    renderConsole('/auth/signin');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sign in' });
    await user.type(field('Email'), 'not-an-email');
    await user.type(field('Company host name'), 'Bad Host!');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(fieldError('Email')).toBe('Enter a valid email address');
    expect(fieldError('Password')).toBe('Password is required');
    expect(fieldError('Company host name')).toMatch(/lower-case letters/);
    expect(field('Email')).toHaveAttribute('aria-invalid', 'true');
    // Editing a field clears its error.
    await user.type(field('Password'), 'x');
    expect(fieldError('Password')).toBeNull();
  });

  it('remembers the last company host name and prefills it', async () => {
    answerSignIn(() => HttpResponse.json({ message: 'ok', user: sessionUser() }));
    const first = renderConsole('/auth/signin');
    await fillAndSubmit(undefined, { email: 'ada@acme.test', password: 'secret-123456', host: 'Globex' });
    await screen.findByTestId('main-app');
    expect(localStorage.getItem('lastCompanyHostname')).toBe('globex');
    first.unmount();
    localStorage.removeItem('user');

    renderConsole('/auth/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(field('Company host name')).toHaveValue('globex');
  });

  it('shows and hides the password', async () => {
    renderConsole('/auth/signin');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(field('Password')).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(field('Password')).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(field('Password')).toHaveAttribute('type', 'password');
  });

  it('links to password reset, activation resend and help', async () => {
    renderConsole('/auth/signin');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/auth/reset-password');
    expect(screen.getByRole('link', { name: 'Activation link expired?' })).toHaveAttribute('href', '/auth/reset-user-account');
    expect(screen.getByRole('link', { name: 'Trouble signing in?' })).toHaveAttribute('href', '/contact-admin');
  });
});
