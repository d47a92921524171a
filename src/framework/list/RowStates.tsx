import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { Identifier } from 'react-admin';

/**
 * Per-row flags of spec section 3 for a list's items: `deleting` while the delete call runs,
 * `deleteError` when it failed (the row stays, marked), `deleted` once it succeeded (the row
 * is gone before the list reloads).
 */
export interface RowState {
  deleting?: boolean;
  deleteError?: string;
  deleted?: boolean;
}

interface RowStates {
  get(id: Identifier): RowState | undefined;
  set(id: Identifier, state: RowState | null): void;
}

const RowStatesContext = createContext<RowStates | null>(null);

export function RowStatesProvider({ children }: { children: ReactNode }) {
  const [states, setStates] = useState<ReadonlyMap<string, RowState>>(() => new Map());
  const set = useCallback((id: Identifier, state: RowState | null) => {
    setStates((current) => {
      const next = new Map(current);
      if (state) next.set(String(id), state);
      else next.delete(String(id));
      return next;
    });
  }, []);
  const value = useMemo<RowStates>(() => ({ get: (id) => states.get(String(id)), set }), [states, set]);
  return <RowStatesContext.Provider value={value}>{children}</RowStatesContext.Provider>;
}

const NO_STATES: RowStates = { get: () => undefined, set: () => undefined };

export function useRowStates(): RowStates {
  return useContext(RowStatesContext) ?? NO_STATES;
}

/** How a row looks in each state: dimmed and inert while deleting, tinted after a failure. */
export function rowStateSx(state: RowState | undefined) {
  if (!state) return {};
  if (state.deleted) return { display: 'none' };
  if (state.deleting) return { opacity: 0.5, pointerEvents: 'none' as const };
  if (state.deleteError) return { backgroundColor: 'rgba(211, 47, 47, 0.08)' };
  return {};
}
