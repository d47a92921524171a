import { screen, waitFor } from '@testing-library/react';
import { sessionUser, storeUser } from '../fixtures';
import { renderConsole } from './renderConsole';

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

  it.each(['/auth/signin', '/auth/reset-password', '/auth/reset-user-account', '/contact-admin'])('serves %s from the auth chunk', async (path) => {
    renderConsole(path);
    expect(await screen.findByText('DataOps Console')).toBeInTheDocument();
    expect(screen.queryByTestId('main-app')).not.toBeInTheDocument();
  });

  it('serves every other path from the main chunk', async () => {
    renderConsole('/workflows/12');
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
  });

  it('keeps the sign-in screen for a signed-in user away: they go to the console', async () => {
    storeUser(sessionUser());
    const { location } = renderConsole('/auth/signin');
    await waitFor(() => expect(location()).toBe('/tables'));
    expect(await screen.findByTestId('main-app')).toBeInTheDocument();
  });
});
