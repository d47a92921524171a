import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

/** Fake timers that still let msw, React and Testing Library make progress. */
export function useFakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

export function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { selector: 'input' });
}

/** The text shown under a field for its error, through its accessible description. */
export function fieldError(label: string): string | null {
  const input = field(label);
  const ids = input.getAttribute('aria-describedby')?.split(' ') ?? [];
  const error = ids.map((id) => document.getElementById(id)).find((node) => node?.classList.contains('auth-error'));
  return error?.textContent ?? null;
}
