import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field } from './helpers';

const pendingOtp = () =>
  storeUser(sessionUser({ auth: false, requireOTP: true, accessToken: 'pending', token: 'pending', navItems: undefined }));
const pendingSetup = () =>
  storeUser(sessionUser({ auth: false, setupOTP: true, accessToken: 'pending', token: 'pending', navItems: undefined }));

const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSW',
  otpauthUrl: 'otpauth://totp/DataOps:ada',
  qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};

describe('verify-otp screen', () => {
  it('sends to sign-in when no sign-in is waiting for a code', async () => {
    const { location } = renderConsole('/auth/verify-otp');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(location()).toBe('/auth/signin');
  });

  it('submits by itself on the sixth digit and goes to the first navigation URL', async () => {
    pendingOtp();
    const calls: { body: unknown; token: string | null }[] = [];
    server.use(
      http.post('/api/v1/user/otp/verify', async ({ request }) => {
        calls.push({ body: await request.json(), token: request.headers.get('x-access-token') });
        return HttpResponse.json({ message: 'ok', user: sessionUser() });
      }),
    );
    const { location } = renderConsole('/auth/verify-otp');
    const input = await screen.findByLabelText('Six-digit code');
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    await userEvent.type(input, '12 34-56');
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
    expect(calls).toEqual([{ body: { otp: '123456' }, token: 'pending' }]);
    expect(storedUser()).toMatchObject({ auth: true });
  });

  it('shows a refused code and clears the field for the next one', async () => {
    pendingOtp();
    server.use(http.post('/api/v1/user/otp/verify', () => HttpResponse.json({ message: 'The code is not valid' }, { status: 400 })));
    const { location } = renderConsole('/auth/verify-otp');
    await userEvent.type(await screen.findByLabelText('Six-digit code'), '000000');
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is not valid');
    expect(field('Six-digit code')).toHaveValue('');
    expect(location()).toBe('/auth/verify-otp');
  });

  it('asks for all six digits when submitted early', async () => {
    pendingOtp();
    renderConsole('/auth/verify-otp');
    await userEvent.type(await screen.findByLabelText('Six-digit code'), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the six digits of the code')).toBeInTheDocument();
  });

  it('"Use another account" drops the waiting sign-in', async () => {
    pendingOtp();
    server.use(http.put('/api/v1/session/logout', () => HttpResponse.json({ message: 'bye' })));
    const { location } = renderConsole('/auth/verify-otp');
    await userEvent.click(await screen.findByRole('link', { name: 'Use another account' }));
    await waitFor(() => expect(location()).toBe('/auth/signin'));
    expect(storedUser()).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});

describe('register-2fa screen', () => {
  function answerSetup() {
    let setups = 0;
    server.use(
      http.get('/api/v1/user/otp/setup', () => {
        setups += 1;
        return HttpResponse.json({ message: 'ok', data: SETUP });
      }),
    );
    return () => setups;
  }

  it('shows the QR code and the grouped secret, then confirms with a code', async () => {
    pendingSetup();
    const setups = answerSetup();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/user/otp/register', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Two-factor is on', user: sessionUser({ otpEnabled: true }) });
      }),
    );
    const { location } = renderConsole('/auth/register-2fa');

    const qr = await screen.findByRole('img', { name: 'QR code to add this account to an authenticator app' });
    expect(qr).toHaveAttribute('src', SETUP.qrCodeDataUrl);
    expect(screen.getByTestId('otp-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW');
    expect(setups()).toBe(1);

    await userEvent.type(field('Six-digit code'), '654321');
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
    expect(bodies).toEqual([{ otp: '654321' }]);
    expect(storedUser()).toMatchObject({ auth: true, otpEnabled: true });
  });

  it('copies the secret', async () => {
    pendingSetup();
    answerSetup();
    const user = userEvent.setup();
    renderConsole('/auth/register-2fa');
    await user.click(await screen.findByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(SETUP.secret);
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('works for a signed-in user turning two-factor on, with a way back', async () => {
    storeUser();
    answerSetup();
    renderConsole('/auth/register-2fa');
    expect(await screen.findByTestId('otp-secret')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the console' })).toHaveAttribute('href', '/tables');
  });

  it('shows a refused confirmation and stays', async () => {
    pendingSetup();
    answerSetup();
    server.use(http.post('/api/v1/user/otp/register', () => HttpResponse.json({ message: 'The code is not valid' }, { status: 400 })));
    const { location } = renderConsole('/auth/register-2fa');
    await userEvent.type(await screen.findByLabelText('Six-digit code'), '111111');
    expect(await screen.findByRole('alert')).toHaveTextContent('The code is not valid');
    expect(location()).toBe('/auth/register-2fa');
    expect(storedUser()).toMatchObject({ setupOTP: true, auth: false });
  });

  it('offers to try again when the key could not be prepared', async () => {
    pendingSetup();
    let calls = 0;
    server.use(
      http.get('/api/v1/user/otp/setup', () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'The database is not available' }, { status: 503 })
          : HttpResponse.json({ message: 'ok', data: SETUP });
      }),
    );
    renderConsole('/auth/register-2fa');
    expect(await screen.findByRole('alert')).toHaveTextContent('The database is not available');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('otp-secret')).toHaveTextContent('JBSW');
    expect(calls).toBe(2);
  });

  it('sends a signed-out visitor to sign-in', async () => {
    const { location } = renderConsole('/auth/register-2fa');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(location()).toBe('/auth/signin');
  });
});

describe('recovery codes and the two-factor dead end', () => {
  const CODES = Array.from({ length: 10 }, (_, i) => `abcde-fg${'hjkmnpqrst'[i]}${'uvwxyz2345'[i]}k`.slice(0, 11));

  it('"Use a recovery code" signs in with one of the saved codes', async () => {
    pendingOtp();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/user/otp/verify', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Signed in', user: sessionUser() });
      }),
    );
    const { location } = renderConsole('/auth/verify-otp');
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    expect(screen.queryByLabelText('Six-digit code')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter a recovery code like abcde-fghjk')).toBeInTheDocument();
    expect(bodies).toEqual([]);
    await userEvent.type(field('Recovery code'), 'ABCDE-FGHJK');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
    expect(bodies).toEqual([{ recoveryCode: 'ABCDE-FGHJK' }]);
  });

  it('shows a refused recovery code and stays', async () => {
    pendingOtp();
    server.use(
      http.post('/api/v1/user/otp/verify', () =>
        HttpResponse.json({ message: 'The recovery code is not valid or has already been used' }, { status: 400 }),
      ),
    );
    const { location } = renderConsole('/auth/verify-otp');
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await userEvent.type(field('Recovery code'), 'abcde-fghjk');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The recovery code is not valid or has already been used');
    expect(location()).toBe('/auth/verify-otp');
    expect(storedUser()).toMatchObject({ requireOTP: true, auth: false });
  });

  it('shows the new recovery codes once two-factor is on, and goes on when the user has saved them', async () => {
    pendingSetup();
    server.use(
      http.get('/api/v1/user/otp/setup', () => HttpResponse.json({ message: 'ok', data: SETUP })),
      http.post('/api/v1/user/otp/register', () =>
        HttpResponse.json({ message: 'Two-factor is on', user: sessionUser({ otpEnabled: true }), recoveryCodes: CODES }),
      ),
    );
    const { location } = renderConsole('/auth/register-2fa');
    await userEvent.type(await screen.findByLabelText('Six-digit code'), '654321');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(screen.getByRole('heading', { name: 'Save your recovery codes' })).toBeInTheDocument();
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(list).toHaveTextContent(CODES[9]);
    expect(location()).toBe('/auth/register-2fa');
    expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'recovery-codes.txt');
    await userEvent.click(screen.getByRole('button', { name: 'I have saved them, continue' }));
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
  });

  it('sends a signed-in user who has two-factor on to the Security section instead of an error', async () => {
    storeUser(sessionUser({ otpEnabled: true }));
    server.use(
      http.get('/api/v1/user/otp/setup', () =>
        HttpResponse.json({ message: 'Two-factor authentication is already on; turn it off before setting it up again' }, { status: 409 }),
      ),
      http.all('/api/v1/*', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    );
    const { location } = renderConsole('/auth/register-2fa');
    await waitFor(() => expect(location()).toBe('/profile'));
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(screen.queryByText(/already on; turn it off/)).not.toBeInTheDocument();
  });
});
