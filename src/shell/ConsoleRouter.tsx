import { createContext, startTransition, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  parsePath,
  Router,
  UNSAFE_createBrowserHistory as createBrowserHistory,
  type Location,
  type Navigator,
  type NavigationType,
  type To,
} from 'react-router';

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

/** What a blocker is asked: may the console move from here to there? */
export interface BlockerArgs {
  currentLocation: Location;
  nextLocation: Location;
  historyAction: NavigationType;
}
export type BlockerFunction = (args: BlockerArgs) => boolean;

/** A move held back by a blocker, until it is let through (`proceed`) or dropped (`reset`). */
export type Blocker =
  | { state: 'unblocked'; location: undefined; proceed: undefined; reset: undefined }
  | { state: 'blocked'; location: Location; proceed: () => void; reset: () => void };

interface HeldMove {
  location: Location;
  proceed: () => void;
}

interface BlockerEntry {
  blocks: BlockerFunction;
  hold: (move: HeldMove | null) => void;
}

const Blockers = createContext<Set<BlockerEntry> | null>(null);

const UNBLOCKED: Blocker = { state: 'unblocked', location: undefined, proceed: undefined, reset: undefined };

/** The location a move goes to, as a blocker sees it. */
function locationOf(to: To, state: unknown): Location {
  const path = typeof to === 'string' ? parsePath(to) : to;
  return { pathname: path.pathname ?? '/', search: path.search ?? '', hash: path.hash ?? '', state: state ?? null, key: 'held' };
}

/** The first blocker that holds back a move, if any. */
function holder(blockers: Set<BlockerEntry>, args: BlockerArgs): BlockerEntry | undefined {
  for (const entry of blockers) if (entry.blocks(args)) return entry;
  return undefined;
}

/**
 * Holds back moves of the console's router while `shouldBlock` says so (react-router's
 * useBlocker, which needs a data router, for the console's own): a form with unsaved changes
 * asks before it is left. Outside the console's router nothing is ever blocked.
 */
export function useConsoleBlocker(shouldBlock: BlockerFunction | boolean): Blocker {
  const blockers = useContext(Blockers);
  const latest = useRef(shouldBlock);
  useLayoutEffect(() => {
    latest.current = shouldBlock;
  });
  const [held, setHeld] = useState<HeldMove | null>(null);
  useEffect(() => {
    if (!blockers) return;
    const entry: BlockerEntry = {
      blocks: (args) => (typeof latest.current === 'function' ? latest.current(args) : latest.current),
      hold: setHeld,
    };
    blockers.add(entry);
    return () => {
      blockers.delete(entry);
    };
  }, [blockers]);
  if (!held) return UNBLOCKED;
  return {
    state: 'blocked',
    location: held.location,
    proceed: () => {
      setHeld(null);
      held.proceed();
    },
    reset: () => setHeld(null),
  };
}

/** Whether moves can be held back here: inside the console's router. */
export function useCanBlockNavigation(): boolean {
  return useContext(Blockers) !== null;
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
  const [blockers] = useState(() => new Set<BlockerEntry>());
  // A Back or Forward a blocker held: the browser had already moved, and is sent back (the echo is ignored).
  const popGuard = useRef<{ undoing: boolean; letThrough: boolean }>({ undoing: false, letThrough: false });
  // Where the history stood after the last move let through: what a Back or Forward leaves.
  const settled = useRef<Location>(history.location);
  const navigator = useMemo<Navigator>(() => {
    const guarded =
      (action: 'PUSH' | 'REPLACE') =>
      (to: To, moveState?: unknown): void => {
        const move = () => (action === 'PUSH' ? history.push(to, moveState) : history.replace(to, moveState));
        const nextLocation = locationOf(to, moveState);
        const entry = holder(blockers, { currentLocation: history.location, nextLocation, historyAction: action as NavigationType });
        if (entry) entry.hold({ location: nextLocation, proceed: move });
        else move();
      };
    return {
      createHref: (to) => history.createHref(to),
      encodeLocation: (to) => history.encodeLocation(to),
      go: (delta) => history.go(delta),
      push: guarded('PUSH'),
      replace: guarded('REPLACE'),
    };
  }, [history, blockers]);
  const pacer = useRef<NavigationPacer | null>(null);
  const [setPacer] = useState(() => (next: NavigationPacer | null) => {
    pacer.current = next;
  });

  useLayoutEffect(() => {
    // The move waiting for what its page needs, if any: a later move replaces it.
    let waiting: RouterState | null = null;
    return history.listen(({ action, location, delta }) => {
      if (action === 'POP') {
        const guard = popGuard.current;
        if (guard.undoing) {
          guard.undoing = false;
          return;
        }
        const entry =
          guard.letThrough || !delta
            ? undefined
            : holder(blockers, { currentLocation: settled.current, nextLocation: location, historyAction: action });
        guard.letThrough = false;
        if (entry) {
          guard.undoing = true;
          history.go(-delta!);
          entry.hold({
            location,
            proceed: () => {
              guard.letThrough = true;
              history.go(delta!);
            },
          });
          return;
        }
      }
      settled.current = location;
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
  }, [history, blockers]);

  return (
    <PacerSetter.Provider value={setPacer}>
      <Blockers.Provider value={blockers}>
        <Router navigator={navigator} location={state.location} navigationType={state.action}>
          {children}
        </Router>
      </Blockers.Provider>
    </PacerSetter.Provider>
  );
}
