import { apiRequest } from './http';
import { getAccessToken } from './storage';

/**
 * Layout preferences (spec section 2), remembered per user.
 *
 * react-admin wipes its Store at logout on purpose, so these live on the server
 * (`GET /user/preferences`, `PUT /user/preferences/layout`). A local copy, keyed by user, paints
 * the last known layout at once while the server copy loads.
 */
export type LayoutMode = 'vertical' | 'horizontal';
export type MenuColours = 'menu-dark' | 'menu-light';
export type HeaderColours = 'header-dark' | 'header-light';
export type ThemeMode = 'light' | 'dark';

export interface LayoutPreferences {
  layout: LayoutMode;
  layoutType: MenuColours;
  headerBackColor: HeaderColours;
  /** The sidebar shows icons only. */
  collapseMenu: boolean;
  /** False: the content keeps a readable maximum width, centred. */
  fullWidthLayout: boolean;
  /** The sidebar stays in place while the content scrolls. */
  navFixedLayout: boolean;
  /** The app bar stays at the top while the content scrolls. */
  headerFixedLayout: boolean;
  theme: ThemeMode;
  /** Menu groups the user opened (true) or closed (false); a group not listed is open. */
  openGroups: Record<string, boolean>;
}

export const PREFERENCES_KEY = 'layout';
export const SAVE_DELAY_MS = 500;

export const DEFAULT_LAYOUT_PREFERENCES: Readonly<LayoutPreferences> = Object.freeze({
  layout: 'vertical',
  layoutType: 'menu-dark',
  headerBackColor: 'header-dark',
  collapseMenu: false,
  fullWidthLayout: true,
  navFixedLayout: true,
  headerFixedLayout: true,
  theme: 'light',
  openGroups: Object.freeze({}) as Record<string, boolean>,
});

export type LayoutPreferencesAction =
  | { type: 'toggleMenuCollapse' }
  | { type: 'toggleMenuGroup'; id: string; open?: boolean }
  | { type: 'setLayout'; layout: LayoutMode }
  | { type: 'setMenuColours'; layoutType: MenuColours }
  | { type: 'setHeaderColours'; headerBackColor: HeaderColours }
  | { type: 'setTheme'; theme: ThemeMode }
  | { type: 'toggleNavFixed' }
  | { type: 'toggleHeaderFixed' }
  | { type: 'toggleFullWidth' }
  | { type: 'reset' };

export function isMenuGroupOpen(preferences: LayoutPreferences, id: string): boolean {
  return preferences.openGroups[id] ?? true;
}

export function reduceLayoutPreferences(state: LayoutPreferences, action: LayoutPreferencesAction): LayoutPreferences {
  switch (action.type) {
    case 'toggleMenuCollapse':
      return { ...state, collapseMenu: !state.collapseMenu };
    case 'toggleMenuGroup': {
      const open = action.open ?? !isMenuGroupOpen(state, action.id);
      if (open === isMenuGroupOpen(state, action.id)) return state;
      return { ...state, openGroups: { ...state.openGroups, [action.id]: open } };
    }
    case 'setLayout':
      return { ...state, layout: action.layout };
    case 'setMenuColours':
      return { ...state, layoutType: action.layoutType };
    case 'setHeaderColours':
      return { ...state, headerBackColor: action.headerBackColor };
    case 'setTheme':
      return { ...state, theme: action.theme };
    case 'toggleNavFixed':
      return { ...state, navFixedLayout: !state.navFixedLayout };
    case 'toggleHeaderFixed':
      return { ...state, headerFixedLayout: !state.headerFixedLayout };
    case 'toggleFullWidth':
      return { ...state, fullWidthLayout: !state.fullWidthLayout };
    case 'reset':
      return { ...DEFAULT_LAYOUT_PREFERENCES, openGroups: {} };
  }
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function flag(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** Reads a stored or server copy defensively: unknown or malformed fields take their default. */
export function normaliseLayoutPreferences(value: unknown): LayoutPreferences {
  const raw = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const d = DEFAULT_LAYOUT_PREFERENCES;
  const openGroups: Record<string, boolean> = {};
  if (raw.openGroups && typeof raw.openGroups === 'object') {
    for (const [id, open] of Object.entries(raw.openGroups as Record<string, unknown>)) {
      if (typeof open === 'boolean') openGroups[id] = open;
    }
  }
  return {
    layout: oneOf(raw.layout, ['vertical', 'horizontal'], d.layout),
    layoutType: oneOf(raw.layoutType, ['menu-dark', 'menu-light'], d.layoutType),
    headerBackColor: oneOf(raw.headerBackColor, ['header-dark', 'header-light'], d.headerBackColor),
    collapseMenu: flag(raw.collapseMenu, d.collapseMenu),
    fullWidthLayout: flag(raw.fullWidthLayout, d.fullWidthLayout),
    navFixedLayout: flag(raw.navFixedLayout, d.navFixedLayout),
    headerFixedLayout: flag(raw.headerFixedLayout, d.headerFixedLayout),
    theme: oneOf(raw.theme, ['light', 'dark'], d.theme),
    openGroups,
  };
}

/** The local copy's storage key: one per user, so another user of the browser gets their own. */
export function localPreferencesKey(userKey: string): string {
  return `preferences.${PREFERENCES_KEY}.${userKey}`;
}

/**
 * The local copy, and whether it holds a change the server has not confirmed yet (the page was
 * left or reloaded within the save delay): such a copy is newer than the server's.
 */
export interface LocalPreferences {
  value: LayoutPreferences;
  unsaved: boolean;
}

export function readLocalPreferences(userKey: string): LocalPreferences | null {
  try {
    const raw = localStorage.getItem(localPreferencesKey(userKey));
    if (!raw) return null;
    const stored = JSON.parse(raw) as { value?: unknown; unsaved?: unknown };
    return { value: normaliseLayoutPreferences(stored?.value), unsaved: stored?.unsaved === true };
  } catch {
    return null;
  }
}

function writeLocalPreferences(userKey: string, local: LocalPreferences): void {
  try {
    localStorage.setItem(localPreferencesKey(userKey), JSON.stringify(local));
  } catch {
    // A full or disabled storage only costs the instant paint; the server keeps the truth.
  }
}

/** The server copy, or null when the user has none yet. */
export async function fetchLayoutPreferences(): Promise<LayoutPreferences | null> {
  const answer = await apiRequest<{ data?: Record<string, unknown> }>('/user/preferences');
  const value = answer?.data?.[PREFERENCES_KEY];
  return value === undefined || value === null ? null : normaliseLayoutPreferences(value);
}

export async function saveLayoutPreferences(preferences: LayoutPreferences): Promise<void> {
  await apiRequest(`/user/preferences/${PREFERENCES_KEY}`, { method: 'PUT', body: { value: preferences } });
}

export interface LayoutPreferencesStore {
  get(): LayoutPreferences;
  subscribe(listener: () => void): () => void;
  dispatch(action: LayoutPreferencesAction): void;
  /** Loads the server copy; a change the user made meanwhile wins over it. */
  load(): Promise<void>;
  /** Sends a pending change now instead of after the debounce delay. */
  flush(): Promise<void>;
}

export interface LayoutPreferencesStoreOptions {
  /** Whose preferences these are (the user id); null for nobody signed in: local defaults only. */
  userKey: string | null;
  saveDelayMs?: number;
}

/** Whether two sets of preferences say the same (the server's copy is often the one already shown). */
export function samePreferences(a: LayoutPreferences, b: LayoutPreferences): boolean {
  const keys = Object.keys(DEFAULT_LAYOUT_PREFERENCES) as (keyof LayoutPreferences)[];
  if (keys.some((key) => key !== 'openGroups' && a[key] !== b[key])) return false;
  const groups = new Set([...Object.keys(a.openGroups), ...Object.keys(b.openGroups)]);
  return [...groups].every((id) => a.openGroups[id] === b.openGroups[id]);
}

export function createLayoutPreferencesStore({
  userKey,
  saveDelayMs = SAVE_DELAY_MS,
}: LayoutPreferencesStoreOptions): LayoutPreferencesStore {
  const local = userKey ? readLocalPreferences(userKey) : null;
  let state: LayoutPreferences = local?.value ?? { ...DEFAULT_LAYOUT_PREFERENCES };
  // True while the server has not confirmed the current state (a change made here, not saved yet).
  let unsaved = local?.unsaved ?? false;
  let saveTimer: ReturnType<typeof setTimeout> | null = null;
  // The token the pending change was made under: a save never goes out under another session.
  let pendingToken: string | null = null;
  const listeners = new Set<() => void>();

  const keepLocally = () => {
    if (userKey) writeLocalPreferences(userKey, { value: state, unsaved });
  };

  const publish = (next: LayoutPreferences) => {
    state = next;
    keepLocally();
    listeners.forEach((listener) => listener());
  };

  const scheduleSave = (delayMs: number) => {
    pendingToken = getAccessToken();
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => void flush(), delayMs);
  };

  const flush = async () => {
    if (!saveTimer) return;
    clearTimeout(saveTimer);
    saveTimer = null;
    if (!pendingToken || pendingToken !== getAccessToken()) return;
    const saving = state;
    try {
      await saveLayoutPreferences(saving);
    } catch {
      return; // Still marked unsaved: the next change or the next start tries again.
    }
    if (state === saving) {
      unsaved = false;
      keepLocally();
    }
  };

  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(action) {
      const next = reduceLayoutPreferences(state, action);
      if (next === state) return;
      unsaved = Boolean(userKey);
      publish(next);
      if (userKey) scheduleSave(saveDelayMs);
    },
    async load() {
      if (!userKey) return;
      if (unsaved) {
        // This browser holds a newer copy than the server's: send it instead of reading.
        scheduleSave(0);
        return flush();
      }
      let remote: LayoutPreferences | null;
      try {
        remote = await fetchLayoutPreferences();
      } catch {
        return; // the local copy stays in use
      }
      // A change made while the answer was on its way is newer than the answer; an answer that
      // says what is shown already changes nothing (nothing is drawn again).
      if (remote && !unsaved && !samePreferences(remote, state)) publish(remote);
    },
    flush,
  };
}
