import { CacheProvider } from '@emotion/react';
import { Suspense, useEffect, useState } from 'react';
import { Admin, CustomRoutes, Loading, localStorageStore, Resource } from 'react-admin';
import { Route } from 'react-router';
import { resources } from '../../resources';
import { authProvider } from '../../providers/authProvider';
import { dataProvider } from '../../providers/dataProvider';
import { i18nProvider } from '../../providers/i18nProvider';
import { loadCallerPolicies } from '../../providers/policies';
import { DEFAULT_LAYOUT_PREFERENCES, readLocalPreferences } from '../../providers/preferences';
import { isSignedIn } from '../../providers/storage';
import { loadColumnChoices } from '../framework/columns/columnChoices';
import { resourceProps } from '../framework/resourceProps';
import { pages } from '../pages';
import { ConsoleQueryClient } from './consoleQueryClient';
import { Dashboard } from './dashboard/Dashboard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { LayoutPreferencesProvider } from './preferences/LayoutPreferencesContext';
import { useSessionUser } from './session';
import { consoleStyleCache } from './styleCache';
import { darkTheme, lightTheme } from './theme';

/**
 * The signed-in console: react-admin inside the shell's router, at the root path, with one
 * <Resource> per declared resource and a route per console page (src/pages). Sign-in, logout and the other public screens are the
 * shell's; react-admin sends a signed-out visitor there through the authProvider's checkAuth.
 */
export default function MainApp() {
  const user = useSessionUser();
  const userKey = user?.id ?? null;
  // The theme to paint first; afterwards the layout keeps react-admin's mode in step.
  const [initialTheme] = useState(() => (userKey && readLocalPreferences(userKey)?.value.theme) || DEFAULT_LAYOUT_PREFERENCES.theme);
  const [store] = useState(() => localStorageStore());
  const [queryClient] = useState(() => new ConsoleQueryClient(authProvider));
  const [styleCache] = useState(() => consoleStyleCache());

  // react-admin wipes its Store at logout: what must outlast a session is on the server, read here.
  useEffect(() => {
    if (!isSignedIn(user)) return;
    void loadColumnChoices(store, resources, dataProvider);
    if (!user?.isAdmin) loadCallerPolicies().catch(() => undefined);
  }, [store, user]);

  return (
    <CacheProvider value={styleCache}>
      <LayoutPreferencesProvider userKey={userKey}>
        <Admin
          disableTelemetry
          requireAuth
          loginPage={false}
          store={store}
          queryClient={queryClient}
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
          {resources.map((declaration) => (
            <Resource key={declaration.name} {...resourceProps(declaration)} />
          ))}
          <CustomRoutes>
            <Route path="/dashboard" element={<Dashboard />} />
            {pages
              .filter((page) => !page.noLayout)
              .map(({ path, component: Page }) => (
                <Route key={path} path={path} element={<Page />} />
              ))}
          </CustomRoutes>
          <CustomRoutes noLayout>
            {pages
              .filter((page) => page.noLayout)
              .map(({ path, component: Page }) => (
                // Without the layout there is no Suspense boundary around the page: this one waits for its chunk.
                <Route
                  key={path}
                  path={path}
                  element={
                    <Suspense fallback={<Loading />}>
                      <Page />
                    </Suspense>
                  }
                />
              ))}
          </CustomRoutes>
        </Admin>
      </LayoutPreferencesProvider>
    </CacheProvider>
  );
}
