import { createContext, useContext, useMemo } from 'react';
import type { FilterDeclaration, FilterType } from '../types';

/**
 * Which of a list's filters sit in its filter row, and which wait behind "Add filter": the row
 * never wraps. The page's frame says how wide its content is (FilterRoomContext, from the window's
 * width and the layout, not measured from the list, which may be drawn while hidden); each kind of
 * filter input has its width as the console's theme draws it. The search comes first, then the
 * declared filters in their order, each where it still fits. A filter holding a value is shown
 * by react-admin whatever its place, and a declaration may pin a filter (`alwaysOn: true`) or put
 * it behind the button (`alwaysOn: false`).
 */

/** The widths the choice and text filter inputs are drawn at (./filterInputs.tsx), px. */
export const FILTER_INPUT_WIDTHS = { select: 160, multiselect: 180, autocomplete: 220, boolean: 180, text: 200 } as const;

/** The space react-admin's filter form keeps after each input, px. */
const FILTER_SPACING = 16;

/**
 * The width of each kind of filter input in the row, its spacing included (px): the choice and
 * text inputs as drawn at their fixed widths; the search and the date inputs as measured in
 * Chromium with the console's theme.
 */
export const FILTER_WIDTHS: Record<FilterType, number> = {
  search: 276,
  select: FILTER_INPUT_WIDTHS.select + FILTER_SPACING,
  multiselect: FILTER_INPUT_WIDTHS.multiselect + FILTER_SPACING,
  autocomplete: FILTER_INPUT_WIDTHS.autocomplete + FILTER_SPACING,
  boolean: FILTER_INPUT_WIDTHS.boolean + FILTER_SPACING,
  date: 194,
  // Two date inputs, from and to, kept together.
  dateRange: 388,
  text: FILTER_INPUT_WIDTHS.text + FILTER_SPACING,
};

/** How wide the page's content is, in px: Infinity where no frame says (every filter then sits in the row). */
export const FilterRoomContext = createContext<number>(Number.POSITIVE_INFINITY);

/** The sources of the filters that sit in the row, for a row `room` px wide. */
export function inlineFilters(filters: readonly FilterDeclaration[], room: number): Set<string> {
  const inline = new Set<string>();
  let left = room;
  const place = (filter: FilterDeclaration) => {
    const width = FILTER_WIDTHS[filter.type];
    if (filter.alwaysOn === true || width <= left) {
      inline.add(filter.source);
      left -= width;
    }
  };
  const offered = filters.filter((filter) => filter.alwaysOn !== false);
  offered.filter((filter) => filter.type === 'search').forEach(place);
  offered.filter((filter) => filter.type !== 'search').forEach(place);
  return inline;
}

/** The list's inline filters, for the room the page's frame gives. */
export function useInlineFilters(filters: readonly FilterDeclaration[] | undefined): Set<string> {
  const room = useContext(FilterRoomContext);
  return useMemo(() => inlineFilters(filters ?? [], room), [filters, room]);
}
