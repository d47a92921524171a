import { consoleMessages } from '../../providers/i18nProvider';
import { resources } from '../../resources';
import { textsOf } from '../framework/declaration';
import { declaredProviders } from '../framework/providers';

/** The console's providers, over every declared resource. */
export const { dataProvider, authProvider, i18nProvider } = declaredProviders(resources);

/** Every text of the console per locale, as the i18nProvider serves them (merged when asked: tests read them). */
export function consoleTexts() {
  return consoleMessages(resources.map(textsOf));
}
