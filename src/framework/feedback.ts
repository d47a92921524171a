import { errorText } from '../../providers/authState';
import { localiseServerText } from '../../providers/i18n/serverTexts';
import { shownLocale } from '../../providers/i18n/userLocale';

/** The text of a failed call, as the alert shows it: the server's message, in the user's language. */
export function failureText(error: unknown): string {
  return localiseServerText(errorText(error), shownLocale());
}

/** Stops a click inside a row's control from also opening the row. */
export function stopRowClick(event: { stopPropagation(): void }): void {
  event.stopPropagation();
}
