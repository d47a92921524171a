import {
  createContext,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
  type ReactElement,
  type ReactNode,
} from 'react';
import { CreateButton, FilterButton, FilterContext, FilterForm, TopToolbar, useListContext } from 'react-admin';
import { ColumnsMenuButton } from '../columns/ColumnsMenuButton';
import { useDeclaration } from '../DeclarationContext';
import { capabilitiesOf } from '../declaration';
import { ShareViewButton } from '../share/ShareViewButton';
import { ExportCsvButton } from './ExportCsvButton';
import { SavedViewsButton } from './SavedViewsButton';
import { rememberedToolbarHeight, rememberToolbarHeight } from './toolbarHeights';
import { useInlineFilters } from './filterRoom';

/**
 * Whether a list's toolbar (filter bar and buttons) may show yet: set once, when the list's
 * first rows are on screen, so that rendering the toolbar does not hold the rows back. Those
 * that show it follow it themselves: its coming renders the toolbar alone, not the list.
 */
export interface ToolbarShown {
  get(): boolean;
  set(): void;
  subscribe(listener: () => void): () => void;
}

export function createToolbarShown(): ToolbarShown {
  let shown = false;
  const listeners = new Set<() => void>();
  return {
    get: () => shown,
    set() {
      if (shown) return;
      shown = true;
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const ALWAYS_SHOWN: ToolbarShown = { get: () => true, set: () => undefined, subscribe: () => () => undefined };

function useToolbarShown(shown: ToolbarShown = ALWAYS_SHOWN): boolean {
  return useSyncExternalStore(shown.subscribe, shown.get, shown.get);
}

/**
 * The same moment for the rows' own controls (activation switches): a list's first rows are
 * drawn with the room of each, and the controls come a frame later. Outside a list (a record's
 * page), they are there at once.
 */
export const RowControlsShown = createContext<ToolbarShown>(ALWAYS_SHOWN);

export function useRowControlsShown(): boolean {
  return useToolbarShown(useContext(RowControlsShown));
}

/** Runs `callback` after the next frame is painted; returns the cancel. */
function afterNextPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (typeof requestAnimationFrame !== 'function') {
    timer = setTimeout(callback, 0);
    return () => clearTimeout(timer);
  }
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(callback, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Inside the List: lets the toolbar show once the first page (its rows, its error, or that it has none) is on screen. */
export function FirstPageShown({ shown }: { shown: ToolbarShown }) {
  const { isPending } = useListContext();
  useEffect(() => (isPending ? undefined : afterNextPaint(shown.set)), [isPending, shown]);
  return null;
}

/**
 * Keeps the toolbar's room while it is held back: the height it had at this window width, set
 * before the frame is painted, so that the rows do not move when it comes; once shown, follows
 * its height. (The window's width, not the toolbar's: reading that would lay the page out
 * before its rows are even painted.)
 */
function useToolbarRoom(ready: boolean) {
  const declaration = useDeclaration();
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const toolbar = ref.current;
    // react-admin's list toolbar row: the filter bar and these buttons side by side.
    const row = toolbar?.parentElement;
    if (!toolbar || !row) return;
    if (!ready) {
      const height = rememberedToolbarHeight(declaration.name, window.innerWidth);
      if (height) toolbar.style.minHeight = `${height}px`;
      return;
    }
    toolbar.style.minHeight = '';
    const remember = () => rememberToolbarHeight(declaration.name, window.innerWidth, row.offsetHeight);
    remember();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(remember);
    observer.observe(row);
    return () => observer.disconnect();
  }, [declaration.name, ready]);
  return ref;
}

/**
 * The list toolbar: filters behind "Add filter", columns, create, export, share, the declaration's own.
 * Held back (`shown` not set yet), only the columns menu is there, out of sight (react-admin's
 * table renders its column list into it as it first shows), in the room the whole toolbar takes.
 * `filters`: the filter inputs, for "Add filter" where react-admin's toolbar does not provide them.
 */
export function DeclaredListActions({
  children,
  shown,
  filters,
}: {
  children?: ReactNode;
  shown?: ToolbarShown;
  filters?: ReactElement[];
}) {
  const declaration = useDeclaration();
  const can = capabilitiesOf(declaration);
  const inline = useInlineFilters(declaration.filters);
  const hidesFilters = (declaration.filters ?? []).some((filter) => !inline.has(filter.source));
  const ready = useToolbarShown(shown);
  const ref = useToolbarRoom(ready);
  return (
    <TopToolbar ref={ref} sx={ready ? undefined : { visibility: 'hidden' }} aria-hidden={ready ? undefined : true}>
      {ready && hidesFilters && <FilterButton filters={filters} />}
      <ColumnsMenuButton />
      {ready && <SavedViewsButton />}
      {ready && can.create && <CreateButton />}
      {ready && can.export && <ExportCsvButton />}
      {ready && can.export && <ShareViewButton />}
      {ready && declaration.actions?.list?.map((Action, index) => <Action key={index} />)}
      {ready && children}
    </TopToolbar>
  );
}

/** The filter bar: react-admin's filter form over the declared inputs, once the toolbar may show. */
export function DeclaredFilterBar({ filters, shown }: { filters: ReactElement[]; shown?: ToolbarShown }) {
  const ready = useToolbarShown(shown);
  if (!ready) return null;
  return (
    <FilterContext.Provider value={filters}>
      <FilterForm />
    </FilterContext.Provider>
  );
}
