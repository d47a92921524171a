/**
 * The alert state of spec section 4: loading, success (alert-success), error (alert-danger),
 * clear. One small store, shown by the shell's alert bar on every screen and cleared on every
 * route change.
 */
export type AlertType = 'loading' | 'success' | 'danger';

export interface AlertState {
  type: AlertType | null;
  message: string;
  /** An alert raised together with a move to this path: the route change to it keeps it. */
  keepFor?: string;
}

export interface AlertOptions {
  /** The path the user is being sent to along with this alert (see AlertState.keepFor). */
  keepFor?: string;
}

const EMPTY: AlertState = { type: null, message: '' };
let state: AlertState = EMPTY;
const listeners = new Set<() => void>();

function set(next: AlertState) {
  state = next;
  listeners.forEach((listener) => listener());
}

export const alerts = {
  loading(message = '') {
    set({ type: 'loading', message });
  },
  success(message: string, options: AlertOptions = {}) {
    set({ type: 'success', message, ...options });
  },
  error(message: string, options: AlertOptions = {}) {
    set({ type: 'danger', message, ...options });
  },
  clear() {
    if (state !== EMPTY) set(EMPTY);
  },
  /**
   * The shell calls this on every route change: alerts are cleared (spec section 2), except
   * one raised for the page just reached, which stays until the next change.
   */
  routeChanged(pathname: string) {
    if (state.keepFor && state.keepFor === pathname) set({ type: state.type, message: state.message });
    else alerts.clear();
  },
  get(): AlertState {
    return state;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
