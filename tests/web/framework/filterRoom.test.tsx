import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FILTER_WIDTHS, inlineFilters } from '../../../src/framework/list/filterRoom';
import type { FilterDeclaration } from '../../../src/framework/types';
import { listToolbarShown } from '../listPage';
import { FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets } from './harness';

/** The users list's filters, in their declared order. */
const USERS: FilterDeclaration[] = [
  { source: 'workspaceId', type: 'autocomplete' },
  { source: 'roleId', type: 'multiselect' },
  { source: 'status', type: 'multiselect' },
  { source: 'createdAt', type: 'dateRange' },
  { source: 'search', type: 'search' },
];

describe('the filter row', () => {
  it('holds the search first, then the declared filters in order while they fit; the rest wait behind "Add filter"', () => {
    // 1280 px wide with the menu open: 968 px of content.
    expect([...inlineFilters(USERS, 968)]).toEqual(['search', 'workspaceId', 'roleId', 'status']);
    // 1440 px, the content at its 1200 px: the two dates fit too.
    expect([...inlineFilters(USERS, 1200)]).toEqual(['search', 'workspaceId', 'roleId', 'status']);
    expect([...inlineFilters(USERS, 1400)]).toEqual(['search', 'workspaceId', 'roleId', 'status', 'createdAt']);
    // A phone: the search alone, then nothing.
    expect([...inlineFilters(USERS, FILTER_WIDTHS.search)]).toEqual(['search']);
    expect([...inlineFilters(USERS, 150)]).toEqual([]);
    // Without a frame that says how wide the page is, every filter sits in the row.
    expect(inlineFilters(USERS, Number.POSITIVE_INFINITY).size).toBe(USERS.length);
  });

  it('puts a later, narrower filter in the room a wider one left', () => {
    const filters: FilterDeclaration[] = [
      { source: 'owner', type: 'autocomplete' },
      { source: 'period', type: 'dateRange' },
      { source: 'kind', type: 'select' },
    ];
    expect([...inlineFilters(filters, FILTER_WIDTHS.autocomplete + FILTER_WIDTHS.select)]).toEqual(['owner', 'kind']);
  });

  it('keeps a pinned filter in the row and a filter declared behind the button there, whatever the room', () => {
    const filters: FilterDeclaration[] = [
      { source: 'owner', type: 'autocomplete', alwaysOn: false },
      { source: 'period', type: 'dateRange', alwaysOn: true },
      { source: 'search', type: 'search' },
    ];
    expect([...inlineFilters(filters, 10_000)]).toEqual(['search', 'period']);
    expect([...inlineFilters(filters, 0)]).toEqual(['period']);
  });

  it(
    'in a narrow page, shows what fits and offers the rest from "Add filter"',
    async () => {
      signIn();
      widgetApi([widget(1), widget(2)]);
      // Room for the search and the first filter (Kinds), not for Condition nor the dates.
      renderDeclared([widgets], { path: '/widgets', filterRoom: FILTER_WIDTHS.search + FILTER_WIDTHS.multiselect + 20 });
      await listToolbarShown();
      expect(screen.getByPlaceholderText('Search widgets')).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: 'Kinds' })).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Condition' })).toBeNull();

      await userEvent.click(screen.getByRole('button', { name: 'Add filter' }));
      const menu = await screen.findByRole('menu');
      expect(within(menu).queryByText('Kinds')).toBeNull();
      await userEvent.click(within(menu).getByText('Condition'));
      expect(await screen.findByRole('combobox', { name: 'Condition' })).toBeInTheDocument();
    },
    FRAMEWORK_TIMEOUT_MS,
  );

  it(
    'in a wide page, shows every filter and no "Add filter"',
    async () => {
      signIn();
      widgetApi([widget(1)]);
      renderDeclared([widgets], { path: '/widgets', filterRoom: 2000 });
      await listToolbarShown();
      expect(screen.getByRole('combobox', { name: 'Condition' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Add filter' })).toBeNull();
    },
    FRAMEWORK_TIMEOUT_MS,
  );
});
