import { render } from '@testing-library/react';
import { Suspense, type ReactNode } from 'react';
import { Admin, CustomRoutes, memoryStore, TestMemoryRouter } from 'react-admin';
import { Route } from 'react-router';
import { declaredProviders } from '../../../src/framework/providers';
import { setStoredUser } from '../../../providers/storage';
import type { SessionUser } from '../../../providers/types';
import type { AnyResourceDeclaration } from '../../../src/framework/types';
import { pages } from '../../../src/pages';
import { AlertBar } from '../../../src/shell/AlertBar';

export interface RegisteredPageOptions {
  /** Who is signed in. */
  user: SessionUser;
  /** The address to open; the page's own path when left out. */
  at?: string;
  /** Declarations the providers know of (their texts, routes and policies). */
  resources?: readonly AnyResourceDeclaration[];
  /** Drawn above the alerts, e.g. a stand-in app bar. */
  header?: ReactNode;
  /** Other routes the page may lead to, by path. */
  routes?: Record<string, ReactNode>;
}

/**
 * A page of the console's registry (src/pages) rendered as MainApp renders it: under react-admin
 * with the real providers, in a plain layout with the alert bar, signed in as `user`.
 */
export function renderRegisteredPage(path: string, { user, at = path, resources = [], header, routes = {} }: RegisteredPageOptions) {
  setStoredUser(user);
  const registered = pages.find((page) => page.path === path);
  if (!registered) throw new Error(`${path} is not registered in src/pages`);
  const Page = registered.component;
  const Layout = ({ children }: { children?: ReactNode }) => (
    <main>
      {header}
      <AlertBar />
      <Suspense fallback={null}>{children}</Suspense>
    </main>
  );
  return render(
    <TestMemoryRouter initialEntries={[at]}>
      <Admin disableTelemetry requireAuth loginPage={false} store={memoryStore()} layout={Layout} {...declaredProviders(resources)}>
        <CustomRoutes>
          <Route path={path} element={<Page />} />
          {Object.entries(routes).map(([route, element]) => (
            <Route key={route} path={route} element={element} />
          ))}
        </CustomRoutes>
      </Admin>
    </TestMemoryRouter>,
  );
}
