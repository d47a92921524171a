import { QueryObserver } from '@tanstack/react-query';
import type { AuthProvider } from 'react-admin';
import { clearStoredUser, getStoredUser, setStoredUser } from '../../../providers/storage';
import type { DeclaredDataProvider } from '../../../providers/dataProvider';
import { ConsoleQueryClient, LIST_PAGE_ACTIONS } from '../../../src/app/consoleQueryClient';
import { cardsKey, firstPageKey, prepareFirstPage } from '../../../src/framework/list/firstPage';
import { defineResource } from '../../../src/framework/types';
import { sessionUser } from '../fixtures';

function authProviderAnswering(answer: (resource: string, action: string) => boolean) {
  const asked: string[] = [];
  const provider = {
    canAccess: async ({ resource, action }: { resource: string; action: string }) => {
      asked.push(`${resource}:${action}`);
      return answer(resource, action);
    },
  } as unknown as AuthProvider;
  return { provider, asked };
}

const accessKey = (resource: string, action: string, more: Record<string, unknown> = {}) => [
  'auth',
  'canAccess',
  { action, resource, ...more },
];

describe('the console query client', () => {
  beforeEach(() => setStoredUser(sessionUser({ accessToken: 'token-1', token: 'token-1' })));
  afterEach(() => clearStoredUser());

  it('asks a list page its access questions ahead, and a check opens with a granted answer, for any record', async () => {
    const { provider, asked } = authProviderAnswering((_, action) => action !== 'delete');
    const client = new ConsoleQueryClient(provider);
    await client.prepareAccess('widgets');
    expect(asked).toEqual(LIST_PAGE_ACTIONS.map((action) => `widgets:${action}`));

    const list = new QueryObserver(client, {
      queryKey: accessKey('widgets', 'list', { enabled: true }),
      queryFn: () => provider.canAccess!({ resource: 'widgets', action: 'list' }),
    });
    expect(list.getCurrentResult()).toMatchObject({ status: 'success', data: true });
    const row = new QueryObserver(client, { queryKey: accessKey('widgets', 'edit', { recordId: 7 }), queryFn: async () => true });
    expect(row.getCurrentResult()).toMatchObject({ status: 'success', data: true });
    // A refusal is asked each time, not taken ahead.
    const refused = new QueryObserver(client, { queryKey: accessKey('widgets', 'delete'), queryFn: async () => false });
    expect(refused.getCurrentResult().status).toBe('pending');
    // Nor is another resource's answer.
    const other = new QueryObserver(client, { queryKey: accessKey('gadgets', 'list'), queryFn: async () => true });
    expect(other.getCurrentResult().status).toBe('pending');
  });

  it("takes an answer the authProvider knows without asking (an admin's) at once, and still checks it", async () => {
    const { provider, asked } = authProviderAnswering(() => true);
    const knowing = { ...provider, grantedNow: () => getStoredUser()?.isAdmin === true };
    const client = new ConsoleQueryClient(knowing);
    setStoredUser(sessionUser({ accessToken: 'token-1', token: 'token-1', isAdmin: true }));
    const observer = new QueryObserver(client, {
      queryKey: accessKey('job-runs', 'list'),
      queryFn: () => knowing.canAccess!({ resource: 'job-runs', action: 'list' }),
    });
    expect(observer.getCurrentResult()).toMatchObject({ status: 'success', data: true });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(asked).toEqual(['job-runs:list']));
    unsubscribe();

    setStoredUser(sessionUser({ accessToken: 'token-2', token: 'token-2', isAdmin: false }));
    expect(
      new QueryObserver(client, { queryKey: accessKey('connections', 'list'), queryFn: async () => true }).getCurrentResult().status,
    ).toBe('pending');
  });

  it("starts react-admin's session checks with what the authProvider knows now, and still runs them; a signed-out visitor's wait", async () => {
    let checks = 0;
    const permissions = { isAdmin: true, pages: ['/dashboard'] };
    const provider = {
      checkAuth: async () => {
        checks += 1;
      },
      getPermissions: async () => permissions,
      signedInNow: () => getStoredUser() !== null,
      permissionsNow: () => (getStoredUser() ? permissions : undefined),
    } as unknown as AuthProvider;
    const client = new ConsoleQueryClient(provider);
    const checkAuth = new QueryObserver(client, {
      queryKey: ['auth', 'checkAuth', { route: 'dashboard' }],
      queryFn: async () => (await provider.checkAuth({}), true),
    });
    expect(checkAuth.getCurrentResult()).toMatchObject({ status: 'success', data: true });
    const unsubscribe = checkAuth.subscribe(() => undefined);
    await vi.waitFor(() => expect(checks).toBe(1));
    unsubscribe();
    const granted = new QueryObserver(client, { queryKey: ['auth', 'getPermissions', {}], queryFn: () => provider.getPermissions!({}) });
    expect(granted.getCurrentResult()).toMatchObject({ status: 'success', data: permissions });

    clearStoredUser();
    const signedOut = new ConsoleQueryClient(provider);
    expect(new QueryObserver(signedOut, { queryKey: ['auth', 'checkAuth', {}], queryFn: async () => true }).getCurrentResult().status).toBe(
      'pending',
    );
    expect(
      new QueryObserver(signedOut, { queryKey: ['auth', 'getPermissions', {}], queryFn: async () => permissions }).getCurrentResult()
        .status,
    ).toBe('pending');
  });

  it('remembers the answers of the checks it ran, for this session only', async () => {
    const { provider } = authProviderAnswering(() => true);
    const client = new ConsoleQueryClient(provider);
    await client.fetchQuery({ queryKey: accessKey('widgets', 'show'), queryFn: async () => true });
    expect(
      new QueryObserver(client, { queryKey: accessKey('widgets', 'show', { recordId: 1 }), queryFn: async () => true }).getCurrentResult()
        .data,
    ).toBe(true);

    setStoredUser(sessionUser({ accessToken: 'token-2', token: 'token-2' }));
    expect(
      new QueryObserver(client, { queryKey: accessKey('widgets', 'show', { recordId: 2 }), queryFn: async () => true }).getCurrentResult()
        .status,
    ).toBe('pending');
  });

  it('a re-check that answers the same renders nothing', async () => {
    const { provider } = authProviderAnswering(() => true);
    const client = new ConsoleQueryClient(provider);
    const observer = new QueryObserver(client, { queryKey: accessKey('widgets', 'list'), queryFn: async () => true });
    const results: unknown[] = [];
    const unsubscribe = observer.subscribe((result) => results.push(result.data));
    await vi.waitFor(() => expect(results).toEqual([true]));
    await observer.refetch();
    expect(results).toEqual([true]);
    unsubscribe();
  });
});

describe("a list page's first page, asked for ahead", () => {
  const widgets = defineResource<{ id: string }>({
    name: 'widgets',
    messages: { en: { name: 'Widget |||| Widgets', fields: { name: 'Name' } } },
    fields: [{ source: 'name', type: 'text' }],
    routes: {
      list: '/widgets/{offset}/{limit}',
      cards: '/widgets/cards',
      filter: { path: '/widgets/filter', sort: { field: 'createdAt', order: 'DESC' } },
    },
  });

  it("goes into the queries the page reads: react-admin's list query and the cards'", async () => {
    const calls: string[] = [];
    const dataProvider = {
      prepareList: (resource: string) => calls.push(`prepare ${resource}`),
      getList: async (resource: string, params: unknown) => {
        calls.push(`getList ${resource} ${JSON.stringify(params)}`);
        return { data: [{ id: 'w1' }], total: 1 };
      },
      getCards: async () => [{ key: 'total', label: 'All', value: 1 }],
      getFilterProps: async () => ({}),
    } as unknown as DeclaredDataProvider;
    const client = new ConsoleQueryClient({} as AuthProvider);
    prepareFirstPage(client, dataProvider, widgets);
    await vi.waitFor(() =>
      expect(client.getQueryData(firstPageKey(widgets))).toEqual({ data: [{ id: 'w1' }], total: 1, pageInfo: undefined, meta: undefined }),
    );
    expect(client.getQueryData(cardsKey('widgets'))).toEqual([{ key: 'total', label: 'All', value: 1 }]);
    expect(calls).toEqual([
      'prepare widgets',
      'getList widgets {"pagination":{"page":1,"perPage":10},"sort":{"field":"createdAt","order":"DESC"},"filter":{}}',
    ]);
    expect(firstPageKey(widgets)).toEqual([
      'widgets',
      'getList',
      { pagination: { page: 1, perPage: 10 }, sort: { field: 'createdAt', order: 'DESC' }, filter: {} },
    ]);
  });
});
