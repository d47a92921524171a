import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { sessionUser, storedUser, storeUser } from '../fixtures';
import { server } from '../msw';
import { renderConsole } from '../shell/renderConsole';
import { field } from './helpers';

describe('reset-user-account (resend the activation)', () => {
  async function resend(user = userEvent.setup()) {
    await screen.findByRole('heading', { name: 'Get a new activation link' }, { timeout: 10_000 });
    await user.type(field('Email'), 'new@acme.test');
    await user.type(field('Company host name'), 'acme');
    await user.click(screen.getByRole('button', { name: 'Send activation link' }));
  }

  it('shows the server message and starts the form over', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/v1/user/token/resend', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'If the account is waiting for activation, a new link is on its way' });
      }),
    );
    renderConsole('/auth/reset-user-account');
    await resend();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('If the account is waiting for activation, a new link is on its way');
    expect(alert).toHaveClass('alert-success');
    expect(bodies).toEqual([{ email: 'new@acme.test', companyHostname: 'acme' }]);
    expect(field('Email')).toHaveValue('');
  });

  it('shows an error and starts the form over too', async () => {
    server.use(
      http.post('/api/v1/user/token/resend', () => HttpResponse.json({ message: 'Too many attempts, try again in 60 s' }, { status: 429 })),
    );
    renderConsole('/auth/reset-user-account');
    await resend();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many attempts, try again in 60 s');
    expect(alert).toHaveClass('alert-danger');
    expect(field('Email')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send activation link' })).toBeEnabled();
  });

  it('explains a lost connection instead of a browser error', async () => {
    server.use(http.post('/api/v1/user/token/resend', () => HttpResponse.error()));
    renderConsole('/auth/reset-user-account');
    await resend();
    expect(await screen.findByRole('alert')).toHaveTextContent('The server could not be reached');
  });
});

describe('/logout', () => {
  it('ends the session, clears storage and replaces the history entry with sign-in', async () => {
    storeUser(sessionUser({ accessToken: 'tok-3', token: 'tok-3' }));
    const tokens: (string | null)[] = [];
    server.use(
      http.put('/api/v1/session/logout', ({ request }) => {
        tokens.push(request.headers.get('x-access-token'));
        return HttpResponse.json({ message: 'Signed out' });
      }),
    );
    const { location, navigationType } = renderConsole(['/tables', '/logout']);
    await waitFor(() => expect(location()).toBe('/auth/signin'));
    expect(navigationType()).toBe('REPLACE');
    expect(tokens).toEqual(['tok-3']);
    expect(storedUser()).toBeNull();
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('signs out locally even when the server cannot be reached', async () => {
    storeUser();
    server.use(http.put('/api/v1/session/logout', () => HttpResponse.error()));
    const { location } = renderConsole('/logout');
    await waitFor(() => expect(location()).toBe('/auth/signin'));
    expect(storedUser()).toBeNull();
  });
});

describe('/contact-admin', () => {
  it('says whom to contact, what to tell them and why, with the remembered host name', async () => {
    localStorage.setItem('lastCompanyHostname', 'acme');
    renderConsole('/contact-admin');
    expect(await screen.findByRole('heading', { name: 'Contact your administrator' })).toBeInTheDocument();
    expect(screen.getByText(/deactivated/)).toBeInTheDocument();
    expect(screen.getByText(/too many attempts/)).toBeInTheDocument();
    expect(screen.getByText(/lost the device/)).toBeInTheDocument();
    expect(screen.getByText('Your company host name: acme.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign-in' })).toHaveAttribute('href', '/auth/signin');
  });
});
