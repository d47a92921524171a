import { reactRouterProvider, type RouterBlocker, type RouterBlockerFunction, type RouterProvider } from 'react-admin';
import { useCanBlockNavigation, useConsoleBlocker } from '../../shell/ConsoleRouter';

/**
 * react-admin's router, with the console's router holding moves back: react-router's own
 * blocker needs a data router, which the console's is not (src/shell/ConsoleRouter.tsx). With
 * it, `warnWhenUnsavedChanges` asks before a form with unsaved changes is left.
 */
export const consoleRouterProvider: RouterProvider = {
  ...reactRouterProvider,
  useBlocker: (shouldBlock: RouterBlockerFunction | boolean) => useConsoleBlocker(shouldBlock) as RouterBlocker,
  useCanBlock: useCanBlockNavigation,
};
