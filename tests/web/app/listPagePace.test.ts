import { QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import type { Location } from 'react-router';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { listPagePacer } from '../../../src/app/menu/listPagePace';
import { cardsKey, FIRST_PAGE_WAIT_MS, firstPageKey, firstPagePace, prepareFirstPage } from '../../../src/framework/list/firstPage';
import { defineResource } from '../../../src/framework/types';

const widgets = defineResource<{ id: string }>({
  name: 'widgets',
  messages: { en: { name: 'Widget |||| Widgets', fields: { name: 'Name' } } },
  fields: [{ source: 'name', type: 'text' }],
  routes: { list: '/widgets/{offset}/{limit}', cards: '/widgets/cards' },
});
const gadgets = defineResource<{ id: string }>({
  name: 'gadgets',
  messages: { en: { name: 'Gadget |||| Gadgets', fields: { name: 'Name' } } },
  fields: [{ source: 'name', type: 'text' }],
  routes: { list: '/gadgets/{offset}/{limit}' },
  // A list view of its own, loaded when first opened.
  views: { list: lazy(async () => ({ default: () => null })) },
});

/** A data provider whose answers the test gives, one per call, in order. */
function heldDataProvider() {
  const pending: Array<() => void> = [];
  const held = <T>(value: T) =>
    new Promise<T>((resolve) => {
      pending.push(() => resolve(value));
    });
  const dataProvider = {
    prepareList: () => undefined,
    getList: () => held({ data: [{ id: 'w1' }], total: 1 }),
    getCards: () => held([{ key: 'total', label: 'All', value: 1 }]),
    getFilterProps: async () => ({}),
  } as unknown as DeclaredDataProvider;
  return { dataProvider, answerAll: () => pending.splice(0).forEach((answer) => answer()) };
}

const at = (pathname: string) => ({ pathname, search: '', hash: '', state: null, key: 'k' }) as Location;

describe('the pace of a move to a list page', () => {
  afterEach(() => vi.useRealTimers());

  it('is at once when nothing of its first page is on its way (asked for and come, or never asked for)', async () => {
    const queryClient = new QueryClient();
    expect(firstPagePace(queryClient, widgets)).toBe('at-once');
    queryClient.setQueryData(firstPageKey(widgets), { data: [], total: 0 });
    queryClient.setQueryData(cardsKey('widgets'), []);
    expect(firstPagePace(queryClient, widgets)).toBe('at-once');
  });

  it('waits for its first page asked for ahead, rows and cards, and settles when both have come', async () => {
    const queryClient = new QueryClient();
    const { dataProvider, answerAll } = heldDataProvider();
    prepareFirstPage(queryClient, dataProvider, widgets);
    const pace = firstPagePace(queryClient, widgets);
    expect(pace).toBeInstanceOf(Promise);
    let settled = false;
    void (pace as Promise<void>).then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    answerAll();
    await vi.waitFor(() => expect(settled).toBe(true));
    expect(queryClient.getQueryData(firstPageKey(widgets))).toMatchObject({ total: 1 });
    expect(firstPagePace(queryClient, widgets)).toBe('at-once');
  });

  it(`waits ${FIRST_PAGE_WAIT_MS} ms at most for a first page that is slow to come`, async () => {
    vi.useFakeTimers();
    const queryClient = new QueryClient();
    prepareFirstPage(queryClient, heldDataProvider().dataProvider, widgets);
    let settled = false;
    void (firstPagePace(queryClient, widgets) as Promise<void>).then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });

  it("is a declared list's own, at its list path; a list with a view of its own and any other page move as a transition", async () => {
    const queryClient = new QueryClient();
    const pacer = listPagePacer(queryClient, [widgets, gadgets]);
    expect(pacer(at('/widgets'))).toBe('at-once');
    expect(pacer(at('/widgets/'))).toBe('at-once');
    expect(pacer(at('/gadgets'))).toBe('transition');
    expect(pacer(at('/widgets/w1'))).toBe('transition');
    expect(pacer(at('/dashboard'))).toBe('transition');

    const { dataProvider } = heldDataProvider();
    prepareFirstPage(queryClient, dataProvider, widgets);
    expect(pacer(at('/widgets'))).toBeInstanceOf(Promise);
  });
});
