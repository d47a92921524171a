import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { storeUser } from '../fixtures';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field, fieldError, useFakeClock } from './helpers';

afterEach(() => vi.useRealTimers());

/** A company's stricter rules, as its service settings give them. */
const STRICT = { minLength: 12, requireUppercase: true, requireLowercase: true, requireDigit: true, requireSymbol: true };
const STRICT_HINT = 'At least 12 characters, with an uppercase letter, a lowercase letter, a digit and a symbol';

function hintOf(label: string): string | null {
  const ids = field(label).getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)).find((node) => node?.classList.contains('auth-hint'))?.textContent ?? null;
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

describe("the new-password forms follow the company's password rules", () => {
  it('reset: the rules come with the link check; a password that breaks them is refused before anything is sent', async () => {
    const user = useFakeClock();
    recordPost('/user/password/token/verify', () =>
      HttpResponse.json({ message: 'ok', data: { email: 'ada@acme.test', clientId: 'g', passwordPolicy: STRICT } }),
    );
    const reset = recordPost('/user/password/reset', () => HttpResponse.json({ message: 'Your password was reset' }));
    renderConsole('/auth/reset-password?token=abc');
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'lower123');
    expect(hintOf('New password')).toBe(STRICT_HINT);
    await user.type(field('Confirm new password'), 'lower123');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(fieldError('New password')).toBe('Password must be at least 12 characters long and contain an uppercase letter and a symbol');
    expect(reset).toEqual([]);

    await user.clear(field('New password'));
    await user.clear(field('Confirm new password'));
    await user.type(field('New password'), 'Lower-case-123');
    await user.type(field('Confirm new password'), 'Lower-case-123');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your password was reset');
    expect(reset).toEqual([{ email: 'ada@acme.test', newPassword: 'Lower-case-123', clientId: 'g' }]);
  });

  it('activation: looser rules let a password through that the default ones refuse', async () => {
    const user = useFakeClock();
    recordPost('/user/verify', () =>
      HttpResponse.json({
        message: 'ok',
        data: {
          email: 'new@acme.test',
          passwordPolicy: { minLength: 8, requireUppercase: false, requireLowercase: false, requireDigit: false, requireSymbol: false },
        },
      }),
    );
    const created = recordPost('/user/password/create', () => HttpResponse.json({ message: 'Your account is active' }));
    renderConsole('/auth/activate-user-account?token=tok');
    await user.type(await screen.findByLabelText('Temporary password', { selector: 'input' }), 'Temp0rary');
    expect(hintOf('New password')).toBe('At least 8 characters, with a letter');
    await user.type(field('New password'), 'onlyletters');
    await user.type(field('Confirm new password'), 'onlyletters');
    await user.click(screen.getByRole('button', { name: 'Activate account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account is active');
    expect(created).toEqual([{ defaultPasswordToken: 'tok', oldPassword: 'Temp0rary', newPassword: 'onlyletters' }]);
  });

  it('a server that sends no rules gets the default ones', async () => {
    const user = useFakeClock();
    recordPost('/user/password/token/verify', () => HttpResponse.json({ message: 'ok', data: { email: 'ada@acme.test', clientId: 'g' } }));
    renderConsole('/auth/reset-password?token=abc');
    await user.type(await screen.findByLabelText('New password', { selector: 'input' }), 'x');
    expect(hintOf('New password')).toBe('At least 10 characters, with letters and digits');
  });

  it("change password: the signed-in user's rules are read when the screen opens", async () => {
    const user = useFakeClock();
    storeUser();
    server.use(http.get('/api/v1/settings/password-policy', () => HttpResponse.json({ message: 'Password policy', data: STRICT })));
    const changed = recordPost('/user/password', () => HttpResponse.json({ message: 'Password Updated SuccessFully' }));
    renderConsole('/auth/change-password');
    await user.type(await screen.findByLabelText('Current password', { selector: 'input' }), 'Old-password-1');
    await screen.findByText(STRICT_HINT);
    await user.type(field('New password'), 'Longenoughpassword1');
    await user.type(field('Confirm new password'), 'Longenoughpassword1');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(fieldError('New password')).toBe('Password must contain a symbol');
    expect(changed).toEqual([]);
  });
});
