import { CacheProvider } from '@emotion/react';
import { useMediaQuery } from '@mui/material';
import { Suspense, useEffect, useMemo, useState } from 'react';
import {
  AdminContext,
  AdminUI,
  CustomRoutes,
  localStorageStore,
  Resource,
  ResourceDefinitionContextProvider,
  type ResourceDefinitions,
} from 'react-admin';
import { Route } from 'react-router';
import { resources } from '../../resources';
import { authProvider, dataProvider, i18nProvider } from './providers';
import { loadCallerPolicies } from '../../providers/policies';
import { DEFAULT_LAYOUT_PREFERENCES, readLocalPreferences } from '../../providers/preferences';
import { isSignedIn } from '../../providers/storage';
import { AccessDeniedPage } from '../framework/AccessDeniedPage';
import { consoleRouterProvider } from '../framework/form/routerProvider';
import { loadColumnChoices } from '../framework/columns/columnChoices';
import { resourceProps } from '../framework/resourceProps';
import { pages } from '../pages';
import { useNavigationPacer } from '../shell/ConsoleRouter';
import { ConsoleQueryClient } from './consoleQueryClient';
import { Dashboard } from './dashboard/Dashboard';
import { ConsoleLayout } from './layout/ConsoleLayout';
import { LiveUpdates } from './live/LiveUpdates';
import { listPagePacer } from './menu/listPagePace';
import { LayoutPreferencesProvider } from './preferences/LayoutPreferencesContext';
import { useSessionUser } from './session';
import { consoleStyleCache } from './styleCache';
import { darkTheme, lightTheme, withReducedMotion } from './theme';
import { PageLoading } from '../framework/Spinner';

/**
 * react-admin's Store, holding the console's locale from the start: react-admin renders nothing
 * under its i18n context until the Store's locale is the i18nProvider's, and then renders the
 * whole console again in one synchronous pass; with the locale there, the console is drawn in
 * the render that mounts it.
 */
export function consoleStore() {
  const store = localStorageStore();
  if (store.getItem('locale') === undefined) store.setItem('locale', i18nProvider.getLocale());
  return store;
}

/**
 * The resources' definitions, as react-admin registers them once the console has mounted: given
 * from the start, the registration finds them there and changes nothing, so the console is not
 * rendered a second time, in full and synchronously, right after its first render.
 */
export const resourceDefinitions: ResourceDefinitions = Object.fromEntries(
  resources.map((declaration) => {
    const props = resourceProps(declaration);
    return [props.name, Resource.registerResource(props)];
  }),
);

/**
 * The resources and pages, made once: react-admin reads its routes from these children again
 * (and draws the whole console again) whenever they are new elements, and the app above
 * renders again when the session or its preferences change.
 */
const consoleRoutes = (
  <>
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
              <Suspense fallback={<PageLoading />}>
                <Page />
              </Suspense>
            }
          />
        ))}
    </CustomRoutes>
  </>
);

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
  const [store] = useState(consoleStore);
  const [queryClient] = useState(() => new ConsoleQueryClient(authProvider));
  const [styleCache] = useState(() => consoleStyleCache());
  const [pacer] = useState(() => listPagePacer(queryClient, resources));
  useNavigationPacer(pacer);
  const reduceMotion = useMediaQuery('(prefers-reduced-motion: reduce)', { noSsr: true });
  const themes = useMemo(
    () =>
      reduceMotion ? { light: withReducedMotion(lightTheme), dark: withReducedMotion(darkTheme) } : { light: lightTheme, dark: darkTheme },
    [reduceMotion],
  );

  // react-admin wipes its Store at logout: what must outlast a session is on the server, read here.
  useEffect(() => {
    if (!isSignedIn(user)) return;
    void loadColumnChoices(store, resources, dataProvider);
    if (!user?.isAdmin) loadCallerPolicies().catch(() => undefined);
  }, [store, user]);

  return (
    <CacheProvider value={styleCache}>
      <LayoutPreferencesProvider userKey={userKey}>
        {/* react-admin's <Admin>, with the resources' definitions known from the start (above). */}
        <AdminContext
          store={store}
          routerProvider={consoleRouterProvider}
          queryClient={queryClient}
          authProvider={authProvider}
          dataProvider={dataProvider}
          i18nProvider={i18nProvider}
          theme={themes.light}
          darkTheme={themes.dark}
          defaultTheme={initialTheme}
        >
          <LiveUpdates sessionKey={isSignedIn(user) ? (user?.accessToken ?? user?.token ?? null) : null} />
          <ResourceDefinitionContextProvider definitions={resourceDefinitions}>
            <AdminUI
              disableTelemetry
              requireAuth
              loginPage={false}
              accessDenied={AccessDeniedPage}
              dashboard={Dashboard}
              layout={ConsoleLayout}
              title={i18nProvider.translate('app.name')}
            >
              {consoleRoutes}
            </AdminUI>
          </ResourceDefinitionContextProvider>
        </AdminContext>
      </LayoutPreferencesProvider>
    </CacheProvider>
  );
}
