import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { PASSWORD_UPDATED_MESSAGE } from '../../../common/messages';
import { PASSWORD_REDIRECT_MS, RESET_REQUEST_REDIRECT_MS } from '../../../src/auth/delays';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field, fieldError, useFakeClock } from './helpers';

afterEach(() => vi.useRealTimers());

/** Checks the user is still here just before `delayMs`, and on sign-in right after it. */
async function expectSignInAfter(delayMs: number, location: () => string | null, target = '/auth/signin') {
  await act(() => vi.advanceTimersByTimeAsync(delayMs - 400));
  expect(location()).not.toBe(target);
  await act(() => vi.advanceTimersByTimeAsync(500));
  expect(location()).toBe(target);
  expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
}

function recordPost(path: string, answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post(`/api/v1${path}`, async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}

describe('delays of spec section 9', () => {
  it('are 3 s after a reset request and 5 s after a password is set', () => {
    expect(RESET_REQUEST_REDIRECT_MS).toBe(3000);
    expect(PASSWORD_REDIRECT_MS).toBe(5000);
  });
});

describe('password reset', () => {
  it('requests a link, shows the answer and returns to sign-in after 3 s', async () => {
    const user = useFakeClock();
    const bodies = recordPost('/user/password/forgot', () => HttpResponse.json({ message: 'If the account exists, a link is on its way' }));
    const { location } = renderConsole('/auth/reset-password');
    await screen.findByRole('heading', { name: 'Reset your password' });
    await user.type(field('Email'), 'ada@acme.test');
    await user.type(field('Company host name'), 'acme');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('If the account exists, a link is on its way');
    expect(alert).toHaveClass('alert-success');
    expect(bodies).toEqual([{ email: 'ada@acme.test', companyHostname: 'acme' }]);
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to sign-in in 3 s');
    await expectSignInAfter(3000, location);
  });

  it('with a token: verifies it, saves the new password with the grant and returns to sign-in after 5 s', async () => {
    const user = useFakeClock();
    const verified = recordPost('/user/password/token/verify', () =>
      HttpResponse.json({ message: 'ok', data: { email: 'ada@acme.test', clientId: 'grant-7' } }),
    );
    const reset = recordPost('/user/password/reset', () => HttpResponse.json({ message: 'Your password was reset' }));
    const { location } = renderConsole('/auth/reset-password?token=abc123');

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    await screen.findByText('For ada@acme.test');
    expect(verified).toEqual([{ resetPasswordToken: 'abc123' }]);

    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(fieldError('Confirm new password')).toBe('The passwords do not match');
    expect(reset).toEqual([]);

    await user.clear(field('Confirm new password'));
    await user.type(field('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your password was reset');
    expect(reset).toEqual([{ email: 'ada@acme.test', newPassword: 'new-password-1', clientId: 'grant-7' }]);
    await expectSignInAfter(5000, location);
  });

  it('with an invalid token: shows the error and a way to ask for a new link', async () => {
    recordPost('/user/password/token/verify', () =>
      HttpResponse.json({ message: 'This password reset link is invalid or has expired' }, { status: 400 }),
    );
    renderConsole('/auth/reset-password?token=stale');
    expect(await screen.findByRole('alert')).toHaveTextContent('This password reset link is invalid or has expired');
    expect(await screen.findByRole('link', { name: 'Request a new reset link' })).toHaveAttribute('href', '/auth/reset-password');
    expect(screen.queryByLabelText('New password', { selector: 'input' })).not.toBeInTheDocument();
  });

  it('applies the password policy before calling the server', async () => {
    const user = useFakeClock();
    recordPost('/user/password/token/verify', () => HttpResponse.json({ message: 'ok', data: { email: 'ada@acme.test', clientId: 'g' } }));
    renderConsole('/auth/reset-password?token=abc');
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'short1');
    await user.type(field('Confirm new password'), 'short1');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(fieldError('New password')).toBe('Password must be at least 10 characters long');
  });
});

describe('account activation', () => {
  const activationOk = () =>
    recordPost('/user/verify', () => HttpResponse.json({ message: 'ok', data: { email: 'new@acme.test', companyHostname: 'acme' } }));

  async function fillActivation(user: ReturnType<typeof useFakeClock>, temporary = 'Temp-pass-123') {
    await user.type(await screen.findByLabelText('Temporary password', { selector: 'input' }), temporary);
    await user.type(field('New password'), 'my-own-password-1');
    await user.type(field('Confirm new password'), 'my-own-password-1');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));
  }

  it('allows creating a password only once the token is verified', async () => {
    const verified = recordPost('/user/verify', () =>
      HttpResponse.json({ message: 'This activation link is invalid or has expired' }, { status: 400 }),
    );
    renderConsole('/auth/activate-user-account?token=bad');
    expect(await screen.findByRole('alert')).toHaveTextContent('This activation link is invalid or has expired');
    expect(verified).toEqual([{ token: 'bad' }]);
    expect(screen.queryByLabelText('Temporary password', { selector: 'input' })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Send me a new activation link' })).toHaveAttribute('href', '/auth/reset-user-account');
  });

  it('treats a missing token as invalid without calling the server', async () => {
    renderConsole('/auth/activate-user-account');
    expect(await screen.findByText('This activation link cannot be used.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Temporary password', { selector: 'input' })).not.toBeInTheDocument();
  });

  it('creates the password, shows the success and returns to sign-in after 5 s', async () => {
    const user = useFakeClock();
    activationOk();
    const created = recordPost('/user/password/create', () => HttpResponse.json({ message: 'Your account is active' }));
    const { location } = renderConsole('/auth/activate-user-account?token=tok-1');
    await fillActivation(user);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account is active');
    expect(alert).toHaveClass('alert-success');
    expect(created).toEqual([{ defaultPasswordToken: 'tok-1', oldPassword: 'Temp-pass-123', newPassword: 'my-own-password-1' }]);
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to sign-in in 5 s');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByRole('status')).toHaveTextContent('Taking you to sign-in in 4 s');
    // Sign-in opens filled with the account's email and host name.
    await expectSignInAfter(4000, location, '/auth/signin?email=new%40acme.test&companyHostname=acme');
    expect(field('Email')).toHaveValue('new@acme.test');
    expect(field('Company host name')).toHaveValue('acme');
  });

  it('a wrong temporary password shows the error and returns to sign-in after 5 s', async () => {
    const user = useFakeClock();
    activationOk();
    recordPost('/user/password/create', () => HttpResponse.json({ message: "The Temporary Password doesn't match" }, { status: 400 }));
    const { location } = renderConsole('/auth/activate-user-account?token=tok-1');
    await fillActivation(user, 'wrong-temp-1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("The Temporary Password doesn't match");
    expect(alert).toHaveClass('alert-danger');
    await expectSignInAfter(5000, location);
  });

  it('another failure stays on the form', async () => {
    const user = useFakeClock();
    activationOk();
    recordPost('/user/password/create', () => HttpResponse.json({ message: 'newPassword: must contain a digit' }, { status: 400 }));
    const { location } = renderConsole('/auth/activate-user-account?token=tok-1');
    await fillActivation(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('newPassword: must contain a digit');
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(location()).toBe('/auth/activate-user-account?token=tok-1');
    expect(screen.getByRole('button', { name: 'Activate account' })).toBeEnabled();
  });
});

describe('password change', () => {
  async function change(user: ReturnType<typeof useFakeClock>) {
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'old-password-1');
    await user.type(field('New password'), 'new-password-1');
    await user.type(field('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('is for signed-in users only', async () => {
    const { location } = renderConsole('/auth/change-password');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe('/auth/signin');
  });

  it('shows exactly "Password Updated SuccessFully", forgets the session and returns to sign-in after 5 s', async () => {
    const user = useFakeClock();
    storeUser(sessionUser({ accessToken: 'tok-5', token: 'tok-5' }));
    const tokens: (string | null)[] = [];
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/user/password', async ({ request }) => {
        tokens.push(request.headers.get('x-access-token'));
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Some other server wording' });
      }),
    );
    const { location } = renderConsole('/auth/change-password');
    expect(screen.queryByText(PASSWORD_UPDATED_MESSAGE)).not.toBeInTheDocument();
    await change(user);
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.alert-text')?.textContent).toBe('Password Updated SuccessFully');
    expect(alert).toHaveClass('alert-success');
    expect(bodies).toEqual([{ oldPassword: 'old-password-1', newPassword: 'new-password-1' }]);
    expect(tokens).toEqual(['tok-5']);
    expect(storedUser()).toBeNull();
    await expectSignInAfter(5000, location);
  });

  it('shows a refused current password and stays', async () => {
    const user = useFakeClock();
    storeUser();
    server.use(
      http.post('/api/v1/user/password', () => HttpResponse.json({ message: 'The current password is not correct' }, { status: 400 })),
    );
    const { location } = renderConsole('/auth/change-password');
    await change(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('The current password is not correct');
    expect(storedUser()).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(6000));
    expect(location()).toBe('/auth/change-password');
  });

  it('refuses a new password equal to the current one, and offers a way back to the console', async () => {
    const user = useFakeClock();
    storeUser();
    renderConsole('/auth/change-password');
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'same-password-1');
    await user.type(field('New password'), 'same-password-1');
    await user.type(field('Confirm new password'), 'same-password-1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(fieldError('New password')).toBe('The new password must differ from the current one');
    expect(screen.getByRole('link', { name: 'Back to the console' })).toHaveAttribute('href', '/tables');
  });
});
