import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { useTranslate } from 'react-admin';
import { rememberedLocale } from '../../../providers/i18n/userLocale';
import { ConsoleUserMenu } from '../../../src/app/layout/ConsoleUserMenu';
import { i18nProvider } from '../../../src/app/providers';
import { LanguageCard } from '../../../src/pages/profile/LanguageCard';
import { t } from '../../../src/auth/i18n';
import { admin, API, mockPreferencesServer, signIn } from '../app/fixtures';
import { renderInConsole, RENDER_TIMEOUT_MS } from '../app/render';
import { server } from '../msw';

/** The user's language: chosen in the profile, kept on the server, applied when the console starts. */

function localeServer(kept: string | null) {
  const saved: unknown[] = [];
  server.use(
    http.get(`${API}/user/preferences/locale`, () => HttpResponse.json({ message: 'Preference', data: { locale: kept } })),
    http.put(`${API}/user/preferences/locale`, async ({ request }) => {
      const body = (await request.json()) as { value: string };
      saved.push(body);
      kept = body.value;
      return HttpResponse.json({ message: 'Preference saved', data: { locale: body.value } });
    }),
  );
  return { saved };
}

function Heading() {
  const translate = useTranslate();
  return <h1>{translate('app.dashboard.title')}</h1>;
}

beforeEach(async () => {
  // One console's provider for every test: each starts in English.
  await i18nProvider.changeLocale('en');
  signIn(admin);
  mockPreferencesServer();
});

describe('the language', { timeout: 3 * RENDER_TIMEOUT_MS }, () => {
  it('is chosen in the profile: the console changes at once and the server keeps it', async () => {
    const api = localeServer(null);
    renderInConsole(
      <>
        <Heading />
        <LanguageCard />
      </>,
    );
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Console language' }));
    await userEvent.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'Français' }));
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Langue de la console' })).toHaveTextContent('Français');
    await waitFor(() => expect(api.saved).toEqual([{ value: 'fr' }]));
    expect(rememberedLocale(admin.id)).toBe('fr');
    // The shell's own screens (alerts, chunk errors) speak it too while the console runs.
    expect(t('shell.chunk.retry')).toBe('Réessayer');
  });

  it('kept on the server applies when the console starts, whatever this browser remembers', async () => {
    localeServer('fr');
    renderInConsole(
      <>
        <Heading />
        <ConsoleUserMenu />
      </>,
    );
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
    expect(rememberedLocale(admin.id)).toBe('fr');
  });

  it('stays as it is against a server that keeps no preferences (404)', async () => {
    server.use(http.get(`${API}/user/preferences/locale`, () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    renderInConsole(
      <>
        <Heading />
        <ConsoleUserMenu />
      </>,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
