import { screen, waitFor } from '@testing-library/react';
import { defineChunk } from '../../../src/shell/lazyChunk';
import { sessionUser, storeUser } from '../fixtures';
import { renderConsole } from './renderConsole';

function Main() {
  return <p>Main app</p>;
}

describe('top-level routes', () => {
  it('sends / to sign-in when signed out', async () => {
    const { location } = renderConsole('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(location()).toBe('/auth/signin');
  });

  it('sends / to the first navigation URL when signed in', async () => {
    storeUser(sessionUser());
    const { location } = renderConsole('/');
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/tables');
  });

  it.each(['/auth/signin', '/auth/reset-password', '/auth/reset-user-account', '/contact-admin'])(
    'serves %s from the auth chunk',
    async (path) => {
      renderConsole(path);
      expect(await screen.findByText('DataOps Console')).toBeInTheDocument();
      expect(screen.queryByTestId('main-app')).not.toBeInTheDocument();
    },
  );

  it('serves every other path from the main chunk when signed in', async () => {
    storeUser(sessionUser());
    const { location } = renderConsole('/workflows/12');
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
    expect(location()).toBe('/workflows/12');
  });

  it('sends a signed-out deep link to sign-in without loading the main chunk', async () => {
    const importMain = vi.fn(async () => ({ default: Main }));
    const { location } = renderConsole('/workflows/12', { main: defineChunk('main', importMain) });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(location()).toBe('/auth/signin');
    expect(importMain).not.toHaveBeenCalled();
  });

  it('does the same for a user still waiting for a two-factor step', async () => {
    storeUser(sessionUser({ auth: false, requireOTP: true }));
    const { location } = renderConsole('/dashboard');
    await waitFor(() => expect(location()).toBe('/auth/signin'));
  });

  it('fetches the auth chunk ahead while the console is shown', async () => {
    storeUser(sessionUser());
    const importAuth = vi.fn(() => import('../../../src/auth/AuthApp'));
    renderConsole('/tables', { auth: defineChunk('auth', importAuth) });
    await screen.findByTestId('main-app');
    await waitFor(() => expect(importAuth).toHaveBeenCalledTimes(1));
  });

  it('keeps the sign-in screen for a signed-in user away: they go to the console', async () => {
    storeUser(sessionUser());
    const { location } = renderConsole('/auth/signin');
    await waitFor(() => expect(location()).toBe('/tables'));
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
  });
});
