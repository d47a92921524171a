import { errorText } from '../../providers/authState';

/** The text of a failed call, as the alert shows it: the server's message. */
export function failureText(error: unknown): string {
  return errorText(error);
}

/** Stops a click inside a row's control from also opening the row. */
export function stopRowClick(event: { stopPropagation(): void }): void {
  event.stopPropagation();
}
