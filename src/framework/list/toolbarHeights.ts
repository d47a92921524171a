/**
 * How tall a list's toolbar (filter bar and buttons) was, by list and window width: the room a
 * list keeps for its toolbar while that is still to come, so that the rows do not move when it
 * does. Kept in this browser; a list not seen yet at a width gets the height any list had there.
 */
const STORAGE_KEY = 'console.listToolbarHeights';
/** Entries kept at most (a few widths of each list). */
const MAX_ENTRIES = 60;

let heights: Map<string, number> | null = null;

function load(): Map<string, number> {
  if (heights) return heights;
  heights = new Map();
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    for (const [key, value] of Object.entries(stored)) if (typeof value === 'number' && value > 0) heights.set(key, value);
  } catch {
    /* nothing kept */
  }
  return heights;
}

const entryKey = (list: string, width: number) => `${list}@${Math.round(width)}`;
const anyList = '*';

/** The toolbar height last seen for this list at this window width, else for any list at this width. */
export function rememberedToolbarHeight(list: string, width: number): number | undefined {
  const known = load();
  return known.get(entryKey(list, width)) ?? known.get(entryKey(anyList, width));
}

export function rememberToolbarHeight(list: string, width: number, height: number): void {
  if (!(width > 0 && height > 0)) return;
  const known = load();
  const key = entryKey(list, width);
  if (known.get(key) === height && known.get(entryKey(anyList, width)) === height) return;
  for (const entry of [key, entryKey(anyList, width)]) {
    known.delete(entry);
    known.set(entry, height);
  }
  while (known.size > MAX_ENTRIES) known.delete(known.keys().next().value!);
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(known)));
  } catch {
    /* storage full or refused: kept for this page only */
  }
}
