import { useLocaleState } from 'react-admin';
import { localiseServerText } from './serverTexts';

/** Words a text the server wrote (a notification's title, an error) in the console's language. */
export function useServerText(): (text: string) => string {
  const [locale] = useLocaleState();
  return (text: string) => localiseServerText(text, locale);
}
