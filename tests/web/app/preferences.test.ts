import {
  createLayoutPreferencesStore,
  DEFAULT_LAYOUT_PREFERENCES,
  isMenuGroupOpen,
  localPreferencesKey,
  reduceLayoutPreferences,
  type LayoutPreferencesAction,
} from '../../../providers/preferences';
import { admin, mockPreferencesServer, plainUser, signIn } from './fixtures';

const defaults = DEFAULT_LAYOUT_PREFERENCES;

describe('layout preferences: state and actions', () => {
  it('starts from the defaults of spec section 2', () => {
    expect(createLayoutPreferencesStore({ userKey: null }).get()).toEqual({
      layout: 'vertical',
      layoutType: 'menu-dark',
      headerBackColor: 'header-dark',
      collapseMenu: false,
      fullWidthLayout: true,
      navFixedLayout: true,
      headerFixedLayout: true,
      theme: 'light',
      openGroups: {},
    });
  });

  it.each<[LayoutPreferencesAction, Partial<typeof defaults>]>([
    [{ type: 'toggleMenuCollapse' }, { collapseMenu: true }],
    [{ type: 'setLayout', layout: 'horizontal' }, { layout: 'horizontal' }],
    [{ type: 'setMenuColours', layoutType: 'menu-light' }, { layoutType: 'menu-light' }],
    [{ type: 'setHeaderColours', headerBackColor: 'header-light' }, { headerBackColor: 'header-light' }],
    [{ type: 'setTheme', theme: 'dark' }, { theme: 'dark' }],
    [{ type: 'toggleNavFixed' }, { navFixedLayout: false }],
    [{ type: 'toggleHeaderFixed' }, { headerFixedLayout: false }],
    [{ type: 'toggleFullWidth' }, { fullWidthLayout: false }],
  ])('%o changes only its own setting', (action, change) => {
    expect(reduceLayoutPreferences(defaults, action)).toEqual({ ...defaults, ...change });
  });

  it('opens and closes menu groups; a group never touched is open', () => {
    expect(isMenuGroupOpen(defaults, 'administration')).toBe(true);
    const closed = reduceLayoutPreferences(defaults, { type: 'toggleMenuGroup', id: 'administration' });
    expect(isMenuGroupOpen(closed, 'administration')).toBe(false);
    expect(isMenuGroupOpen(closed, 'overview')).toBe(true);
    const reopened = reduceLayoutPreferences(closed, { type: 'toggleMenuGroup', id: 'administration', open: true });
    expect(reopened.openGroups).toEqual({ administration: true });
    // Asking for the state a group is already in changes nothing.
    expect(reduceLayoutPreferences(reopened, { type: 'toggleMenuGroup', id: 'administration', open: true })).toBe(reopened);
  });

  it('resets every setting to its default', () => {
    const changed = (['toggleMenuCollapse', 'toggleNavFixed', 'toggleHeaderFixed', 'toggleFullWidth'] as const).reduce(
      (state, type) => reduceLayoutPreferences(state, { type }),
      reduceLayoutPreferences({ ...defaults, layout: 'horizontal', theme: 'dark' }, { type: 'toggleMenuGroup', id: 'overview' }),
    );
    expect(reduceLayoutPreferences(changed, { type: 'reset' })).toEqual(defaults);
  });
});

describe('layout preferences: kept on the server, per user', () => {
  it('loads the server copy, reading unknown or malformed fields as their defaults', async () => {
    signIn(admin);
    mockPreferencesServer({
      'token-admin': { layout: 'horizontal', theme: 'dark', collapseMenu: 'yes', openGroups: { overview: false, x: 1 } },
    });
    const store = createLayoutPreferencesStore({ userKey: admin.id! });
    await store.load();
    expect(store.get()).toEqual({ ...defaults, layout: 'horizontal', theme: 'dark', openGroups: { overview: false } });
  });

  it("changes nothing when the server's copy says what is shown already: nothing is drawn again", async () => {
    signIn(admin);
    const shown = { ...defaults, theme: 'dark' as const, openGroups: { overview: false } };
    localStorage.setItem(localPreferencesKey(admin.id!), JSON.stringify({ value: shown, unsaved: false }));
    mockPreferencesServer({ 'token-admin': { ...shown, openGroups: { overview: false } } });
    const store = createLayoutPreferencesStore({ userKey: admin.id! });
    const before = store.get();
    const listener = vi.fn();
    store.subscribe(listener);
    await store.load();
    expect(listener).not.toHaveBeenCalled();
    expect(store.get()).toBe(before);

    // A copy that differs, even in one menu group only, is taken.
    mockPreferencesServer({ 'token-admin': { ...shown, openGroups: { overview: false, reports: false } } });
    await store.load();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.get().openGroups).toEqual({ overview: false, reports: false });
  });

  it('saves changes with PUT /user/preferences/layout, debounced into one call', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    const store = createLayoutPreferencesStore({ userKey: admin.id!, saveDelayMs: 20 });
    store.dispatch({ type: 'setLayout', layout: 'horizontal' });
    store.dispatch({ type: 'toggleFullWidth' });
    store.dispatch({ type: 'toggleMenuGroup', id: 'administration' });
    expect(api.saved).toHaveLength(0);
    await vi.waitFor(() => expect(api.saved).toHaveLength(1));
    expect(api.saved[0]).toEqual({
      token: 'token-admin',
      body: { value: { ...defaults, layout: 'horizontal', fullWidthLayout: false, openGroups: { administration: false } } },
    });
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(api.saved).toHaveLength(1);
  });

  it('paints from the local copy at once, and a change made before the server answers wins', async () => {
    signIn(admin);
    localStorage.setItem(localPreferencesKey(admin.id!), JSON.stringify({ value: { ...defaults, theme: 'dark' }, unsaved: false }));
    const api = mockPreferencesServer({ 'token-admin': { ...defaults, layout: 'horizontal' } });
    const store = createLayoutPreferencesStore({ userKey: admin.id!, saveDelayMs: 5 });
    expect(store.get().theme).toBe('dark');
    const loading = store.load();
    store.dispatch({ type: 'toggleMenuCollapse' });
    await loading;
    expect(store.get()).toMatchObject({ theme: 'dark', layout: 'vertical', collapseMenu: true });
    await vi.waitFor(() => expect(api.saved).toHaveLength(1));
  });

  it('sends a change the page was left before saving at the next start, rather than taking the older server copy', async () => {
    signIn(admin);
    const api = mockPreferencesServer({ 'token-admin': { ...defaults, layout: 'horizontal' } });
    const before = createLayoutPreferencesStore({ userKey: admin.id!, saveDelayMs: 10_000 });
    before.dispatch({ type: 'reset' }); // no change: nothing to keep
    before.dispatch({ type: 'toggleFullWidth' }); // left unsaved: the page goes before the delay

    const after = createLayoutPreferencesStore({ userKey: admin.id! });
    await after.load();
    expect(after.get()).toEqual({ ...defaults, fullWidthLayout: false });
    expect(api.saved.map((save) => save.body)).toEqual([{ value: { ...defaults, fullWidthLayout: false } }]);

    // Once saved, the next start reads the server again (this mock keeps answering its first copy).
    const later = createLayoutPreferencesStore({ userKey: admin.id! });
    await later.load();
    expect(later.get().layout).toBe('horizontal');
  });

  it('gives another user of the same browser their own preferences', async () => {
    const api = mockPreferencesServer({ 'token-bob': { ...defaults, layoutType: 'menu-light' } });
    signIn(admin);
    const adminStore = createLayoutPreferencesStore({ userKey: admin.id!, saveDelayMs: 5 });
    adminStore.dispatch({ type: 'setTheme', theme: 'dark' });
    await vi.waitFor(() => expect(api.saved).toHaveLength(1));

    signIn(plainUser);
    const bobStore = createLayoutPreferencesStore({ userKey: plainUser.id! });
    expect(bobStore.get().theme).toBe('light');
    await bobStore.load();
    expect(bobStore.get()).toMatchObject({ theme: 'light', layoutType: 'menu-light' });
    expect(createLayoutPreferencesStore({ userKey: admin.id! }).get().theme).toBe('dark');
  });

  it('never saves a change under another session than the one it was made in', async () => {
    signIn(admin);
    const api = mockPreferencesServer();
    const store = createLayoutPreferencesStore({ userKey: admin.id!, saveDelayMs: 5 });
    store.dispatch({ type: 'toggleFullWidth' });
    signIn(plainUser); // e.g. an impersonation began before the save went out
    await store.flush();
    expect(api.saved).toHaveLength(0);
  });
});
