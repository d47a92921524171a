import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AuthContext, DataProviderContext, type AuthProvider } from 'react-admin';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { HOVER_INTENT_MS, usePrepareListPage } from '../../../src/app/menu/usePrepareListPage';

function Entry({ url }: { url: string }) {
  const handlers = usePrepareListPage(url);
  return (
    <a href={url} {...handlers}>
      Users
    </a>
  );
}

/** A menu entry for the users list, with a data provider that counts what it is asked ahead. */
function renderEntry({ allowed = true }: { allowed?: boolean } = {}) {
  const prepared: string[] = [];
  const dataProvider = {
    prepareList: (resource: string) => prepared.push(resource),
    getList: async () => ({ data: [{ id: 'u1' }], total: 1 }),
    getCards: async () => [],
    getFilterProps: async () => ({}),
  } as unknown as DeclaredDataProvider;
  const authProvider = { canAccess: async () => allowed } as unknown as AuthProvider;
  const queryClient = new QueryClient();
  render(
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={authProvider}>
        <DataProviderContext.Provider value={dataProvider}>
          <Entry url="/users" />
        </DataProviderContext.Provider>
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { prepared, entry: screen.getByRole('link', { name: 'Users' }) };
}

/** Lets the access answer and what follows it run. */
const settle = () => act(async () => vi.advanceTimersByTimeAsync(0));

describe('a menu entry starts its list page as the user heads for it', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it.each([
    ['the pointer rests on it, not when it passes over', fireEvent.pointerEnter, fireEvent.pointerLeave],
    ['the keyboard focuses it for as long, not when Tab passes through', fireEvent.focus, fireEvent.blur],
  ])('when %s', async (_, arrive, leave) => {
    const { prepared, entry } = renderEntry();
    arrive(entry);
    await act(async () => vi.advanceTimersByTimeAsync(HOVER_INTENT_MS - 10));
    leave(entry);
    await act(async () => vi.advanceTimersByTimeAsync(HOVER_INTENT_MS));
    expect(prepared).toEqual([]);
    arrive(entry);
    await act(async () => vi.advanceTimersByTimeAsync(HOVER_INTENT_MS));
    expect(prepared).toEqual(['users']);
  });

  it('at once when pressed, or when Enter is pressed on it', async () => {
    const pressed = renderEntry();
    fireEvent.pointerDown(pressed.entry);
    await settle();
    expect(pressed.prepared).toEqual(['users']);
    cleanup();

    const typed = renderEntry();
    fireEvent.keyDown(typed.entry, { key: 'Tab' });
    await settle();
    expect(typed.prepared).toEqual([]);
    fireEvent.keyDown(typed.entry, { key: 'Enter' });
    await settle();
    expect(typed.prepared).toEqual(['users']);
  });

  it('once: resting on it and then pressing it asks nothing more while its first page is on its way or has just come', async () => {
    const { prepared, entry } = renderEntry();
    fireEvent.pointerEnter(entry);
    await act(async () => vi.advanceTimersByTimeAsync(HOVER_INTENT_MS));
    fireEvent.focus(entry);
    fireEvent.pointerDown(entry);
    await settle();
    await act(async () => vi.advanceTimersByTimeAsync(HOVER_INTENT_MS));
    expect(prepared).toEqual(['users']);
  });

  it('not for a user who may not read the list', async () => {
    const { prepared, entry } = renderEntry({ allowed: false });
    fireEvent.pointerDown(entry);
    fireEvent.keyDown(entry, { key: 'Enter' });
    await settle();
    expect(prepared).toEqual([]);
  });
});
