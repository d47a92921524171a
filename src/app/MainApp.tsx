import { useState } from 'react';
import { Admin, CustomRoutes, Resource } from 'react-admin';
import { Route } from 'react-router';
import { authProvider } from '../../providers/authProvider';
import { dataProvider } from '../../providers/dataProvider';
import { i18nProvider } from '../../providers/i18nProvider';
import { DEFAULT_LAYOUT_PREFERENCES, readLocalPreferences } from '../../providers/preferences';
import { Dashboard } from './dashboard/Dashboard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { outbox } from './outbox';
import { LayoutPreferencesProvider } from './preferences/LayoutPreferencesContext';
import { useSessionUser } from './session';
import { darkTheme, lightTheme } from './theme';

/**
 * The signed-in console: react-admin inside the shell's router, at the root path. Sign-in,
 * logout and the other public screens are the shell's; react-admin sends a signed-out visitor
 * there through the authProvider's checkAuth.
 */
export default function MainApp() {
  const user = useSessionUser();
  const userKey = user?.id ?? null;
  // The theme to paint first; afterwards the layout keeps react-admin's mode in step.
  const [initialTheme] = useState(() => (userKey && readLocalPreferences(userKey)?.value.theme) || DEFAULT_LAYOUT_PREFERENCES.theme);
  return (
    <LayoutPreferencesProvider userKey={userKey}>
      <Admin
        disableTelemetry
        requireAuth
        loginPage={false}
        authProvider={authProvider}
        dataProvider={dataProvider}
        i18nProvider={i18nProvider}
        dashboard={Dashboard}
        layout={ConsoleLayout}
        theme={lightTheme}
        darkTheme={darkTheme}
        defaultTheme={initialTheme}
        title={i18nProvider.translate('app.name')}
      >
        <Resource {...outbox} />
        <CustomRoutes>
          <Route path="/dashboard" element={<Dashboard />} />
        </CustomRoutes>
      </Admin>
    </LayoutPreferencesProvider>
  );
}
