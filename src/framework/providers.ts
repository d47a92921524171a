import type { I18nProvider } from 'react-admin';
import { createAuthProvider, type ConsoleAuthProvider } from '../../providers/authProvider';
import { createConsoleDataProvider, type ConsoleDataProvider } from '../../providers/dataProvider';
import { createI18nProvider } from '../../providers/i18nProvider';
import { callsOf, textsOf } from './declaration';
import { withRelatedLists } from './related/relatedLists';
import type { AnyResourceDeclaration } from './types';

export interface DeclaredProviders {
  dataProvider: ConsoleDataProvider;
  authProvider: ConsoleAuthProvider;
  i18nProvider: I18nProvider;
}

/** The providers react-admin's <Admin> takes, over some declarations (the registry in the app; a test's own in tests). */
export function declaredProviders(declarations: readonly AnyResourceDeclaration[]): DeclaredProviders {
  return {
    dataProvider: withRelatedLists(createConsoleDataProvider(declarations.map(callsOf)), declarations),
    authProvider: createAuthProvider(declarations),
    i18nProvider: createI18nProvider(declarations.map(textsOf)),
  };
}
