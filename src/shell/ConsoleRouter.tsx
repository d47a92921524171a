import { createContext, startTransition, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Router, UNSAFE_createBrowserHistory as createBrowserHistory, type Location, type NavigationType } from 'react-router';

/**
 * How a move to a location is drawn:
 * - `'at-once'`: all the page needs is here (its code, its first data), so it is drawn in one go,
 *   as the click that asked for it is handled;
 * - a promise: what it needs is on its way and will not keep it waiting long; the page shown
 *   stays until the promise settles, then the new one is drawn in one go;
 * - `'transition'`: React draws it as a transition, keeping the page shown until the new one is
 *   ready (for pages whose code or data may not be here yet).
 * A transition is drawn in slices of a few milliseconds that give way to anything else on the
 * page (the clicked entry's ripple, each answer as it comes) and start over after it: a page that
 * has all it needs appears sooner when drawn in one go.
 */
export type NavigationPace = 'at-once' | 'transition' | Promise<void>;

/** Tells the pace of a move to a location; the console's pages give theirs once they are loaded. */
export type NavigationPacer = (location: Location) => NavigationPace;

const PacerSetter = createContext<(pacer: NavigationPacer | null) => void>(() => undefined);

/** Gives the router the pace of moves to the caller's pages, for as long as the caller is mounted. */
export function useNavigationPacer(pacer: NavigationPacer): void {
  const setPacer = useContext(PacerSetter);
  useEffect(() => {
    setPacer(pacer);
    return () => setPacer(null);
  }, [pacer, setPacer]);
}

interface RouterState {
  action: NavigationType;
  location: Location;
}

/**
 * The console's browser router: react-router's BrowserRouter, except that each move is drawn at
 * the pace the page moved to asks for (NavigationPace), every move being a transition when no
 * page says otherwise (as with BrowserRouter).
 */
export function ConsoleRouter({ children }: { children?: ReactNode }) {
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  const [state, setState] = useState<RouterState>(() => ({ action: history.action, location: history.location }));
  const pacer = useRef<NavigationPacer | null>(null);
  const [setPacer] = useState(() => (next: NavigationPacer | null) => {
    pacer.current = next;
  });

  useLayoutEffect(() => {
    // The move waiting for what its page needs, if any: a later move replaces it.
    let waiting: RouterState | null = null;
    return history.listen(({ action, location }) => {
      const next = { action, location };
      const pace = pacer.current?.(location) ?? 'transition';
      if (pace === 'at-once') {
        waiting = null;
        setState(next);
      } else if (pace === 'transition') {
        waiting = null;
        startTransition(() => setState(next));
      } else {
        waiting = next;
        const draw = () => {
          if (waiting !== next) return;
          waiting = null;
          setState(next);
        };
        pace.then(draw, draw);
      }
    });
  }, [history]);

  return (
    <PacerSetter.Provider value={setPacer}>
      <Router navigator={history} location={state.location} navigationType={state.action}>
        {children}
      </Router>
    </PacerSetter.Provider>
  );
}
