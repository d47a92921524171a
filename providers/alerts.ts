/**
 * The alert state of spec section 4: loading, success (alert-success), error (alert-danger),
 * clear. One small store, shown by the shell's alert bar on every screen and cleared on every
 * route change.
 */
export type AlertType = 'loading' | 'success' | 'danger';

export interface AlertState {
  type: AlertType | null;
  message: string;
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
  success(message: string) {
    set({ type: 'success', message });
  },
  error(message: string) {
    set({ type: 'danger', message });
  },
  clear() {
    if (state !== EMPTY) set(EMPTY);
  },
  get(): AlertState {
    return state;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
