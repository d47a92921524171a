import { configure, render } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AdminContext, memoryStore, Notification, TestMemoryRouter, type I18nProvider } from 'react-admin';
import type { Location } from 'react-router';
import { authProvider, dataProvider, i18nProvider as consoleI18nProvider } from '../../../src/app/providers';
import { LayoutPreferencesProvider } from '../../../src/app/preferences/LayoutPreferencesContext';
import { darkTheme, lightTheme } from '../../../src/app/theme';
import { getStoredUser } from '../../../providers/storage';

/**
 * Per-test time for suites that render react-admin: seconds in jsdom, more when every suite runs
 * at once on a small machine.
 */
export const RENDER_TIMEOUT_MS = 20_000;

// findBy* and waitFor: the default second is tight for react-admin under a loaded machine.
configure({ asyncUtilTimeout: 4000 });

export interface ConsoleRender {
  /** Where the router is now. */
  location(): Location;
}

/**
 * Renders part of the main app the way MainApp provides for it (the console's providers, the
 * signed-in user's layout preferences, toasts), without the whole <Admin>: faster, and focused.
 */
export function renderInConsole(
  ui: ReactNode,
  {
    path = '/dashboard',
    i18nProvider = consoleI18nProvider,
    queryClient,
  }: {
    path?: string;
    i18nProvider?: I18nProvider;
    /** MainApp's own (ConsoleQueryClient), where a test needs it. */ queryClient?: QueryClient;
  } = {},
): ConsoleRender & ReturnType<typeof render> {
  let current: Location | null = null;
  const result = render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(location) => (current = location)}>
      <LayoutPreferencesProvider userKey={getStoredUser()?.id ?? null}>
        <AdminContext
          authProvider={authProvider}
          dataProvider={dataProvider}
          queryClient={queryClient}
          i18nProvider={i18nProvider}
          store={memoryStore()}
          theme={lightTheme}
          darkTheme={darkTheme}
        >
          {ui}
          <Notification />
        </AdminContext>
      </LayoutPreferencesProvider>
    </TestMemoryRouter>,
  );
  return {
    ...result,
    location() {
      if (!current) throw new Error('The router has not rendered yet');
      return current;
    },
  };
}
