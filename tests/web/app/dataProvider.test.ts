import { http, HttpResponse } from 'msw';
import { createDataProvider, fillPath, readList } from '../../../providers/dataProvider';
import { dataProvider } from '../../../src/app/providers';
import { callsOf } from '../../../src/framework/declaration';
import { defineResource, type AnyResourceDeclaration } from '../../../src/framework/types';
import { forgetHeadStarts } from '../../../providers/http';
import { server } from '../msw';
import { admin, API, signIn } from './fixtures';

/**
 * The route map derived from declarations: every kind of route, including the contract's odd
 * ones, written as small declarations here (the real ones live in resources/).
 */

interface Seen {
  method: string;
  path: string;
  body: unknown;
  contentType: string | null;
}

/** Answers every call under /api/v1 with `answer(seen)` and records it. */
function recordCalls(answer: (seen: Seen) => unknown = () => ({ message: 'ok', data: { rows: [], count: 0, countExact: true } })): Seen[] {
  const calls: Seen[] = [];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const url = new URL(request.url);
      const contentType = request.headers.get('content-type');
      let body: unknown = undefined;
      if (contentType?.includes('application/json')) body = await request.json();
      else if (contentType?.includes('multipart/form-data')) {
        const form = await request.formData();
        body = Object.fromEntries([...form.keys()].map((key) => [key, form.getAll(key).map(String)]));
      }
      const seen = { method: request.method, path: url.pathname.slice(API.length) + url.search, body, contentType };
      calls.push(seen);
      return HttpResponse.json(answer(seen) as Record<string, unknown>);
    }),
  );
  return calls;
}

const en = (name: string) => ({ en: { name } });

const users = defineResource({
  name: 'users',
  messages: en('Users'),
  fields: [
    { source: 'email', type: 'email', create: true, sortable: true },
    { source: 'firstName', type: 'text', create: true, edit: true },
    { source: 'lastName', type: 'text', create: true, edit: true },
    { source: 'roleId', type: 'select', create: true, edit: true, list: false },
    { source: 'workspaceIds', type: 'multiselect', create: true, edit: true, list: false },
    { source: 'isActive', type: 'boolean', edit: true },
  ],
  filters: [
    { source: 'workspace', type: 'autocomplete' },
    { source: 'role', type: 'multiselect' },
    { source: 'status', type: 'select' },
    { source: 'dates', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  routes: {
    list: '/users/{offset}/{limit}',
    filter: { path: '/users/filter/{limit}/{offset}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/users/filter/props',
    cards: '/users/cards',
    one: '/users/{id}',
    create: '/user',
    update: '/user/profile/{id}',
    delete: '/users/{id}',
  },
});

const roles = defineResource({
  name: 'roles',
  messages: en('Roles'),
  fields: [{ source: 'name', type: 'text', edit: true }],
  filters: [
    { source: 'type', type: 'select' },
    { source: 'search', type: 'search' },
  ],
  activation: { field: 'isActive' },
  routes: {
    list: '/roles/{offset}/{limit}',
    filter: { path: '/roles/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'updatedAt', order: 'DESC' } },
    filterProps: '/roles/filter/props/',
    search: { path: '/roles/search/{offset}/{limit}', pagingInBody: true },
    one: '/role/{id}',
    update: '/roles/{id}',
    activate: { path: '/roles/activate/{id}', body: { isActive: true } },
    deactivate: { path: '/roles/activate/{id}', body: { isActive: false } },
  },
});

const sessions = defineResource({
  name: 'sessions',
  messages: en('Sessions'),
  fields: [{ source: 'email', type: 'email' }],
  filters: [{ source: 'status', type: 'select' }],
  routes: {
    list: '/session/{offset}/{limit}',
    filter: { path: '/session/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'isDeleted', order: 'ASC' } },
  },
});

const workspaces = defineResource({
  name: 'workspaces',
  messages: en('Workspaces'),
  fields: [
    { source: 'name', type: 'text', sortable: true, create: true, edit: true },
    { source: 'description', type: 'longtext', create: true, edit: true },
    { source: 'memberCount', type: 'number', sortable: true },
  ],
  filters: [{ source: 'search', type: 'search' }],
  routes: {
    list: '/workspaces',
    create: { path: '/workspaces', encoding: 'form' },
    update: { path: '/workspace', method: 'PUT', encoding: 'form', idField: 'id' },
    delete: { path: '/workspace/{id}', method: 'PUT' },
  },
});

const apikeys = defineResource({
  name: 'apikeys',
  messages: en('API keys'),
  fields: [{ source: 'name', type: 'text' }],
  filters: [
    { source: 'isActive', type: 'select' },
    { source: 'isDeleted', type: 'select' },
  ],
  activation: { field: 'isActive' },
  routes: {
    list: '/apikeys/{offset}/{limit}',
    filter: { path: '/apikey/filter/{offset}/{limit}', sort: { field: 'createdAt', order: 'DESC' } },
    activate: '/apikey/activate/{id}',
    deactivate: '/apikey/deactivate/{id}',
  },
});

const audits = defineResource({
  name: 'audits',
  messages: en('Audits'),
  fields: [{ source: 'model', type: 'text' }],
  filters: [
    { source: 'model', type: 'select' },
    { source: 'search', type: 'search' },
  ],
  routes: {
    list: '/system/audits/{offset}/{limit}',
    filter: { path: '/system/audits/filter/{offset}/{limit}', pagingInBody: true, sort: { field: 'createdAt', order: 'DESC' } },
  },
});

const notifications = defineResource({
  name: 'notifications',
  messages: en('Notifications'),
  fields: [{ source: 'title', type: 'text' }],
  filters: [
    { source: 'status', type: 'select' },
    { source: 'search', type: 'search' },
  ],
  routes: {
    list: '/notification/{offset}/{limit}',
    filter: { path: '/notification/filter/{offset}/{limit}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    search: '/notification/search/{offset}/{limit}/{search}',
    filterProps: '/notification/options',
  },
});

const declarations: AnyResourceDeclaration[] = [users, roles, sessions, workspaces, apikeys, audits, notifications];
const provider = createDataProvider(declarations.map(callsOf));

const page = (page: number, perPage = 10) => ({ page, perPage });
const noSort = { field: '', order: 'ASC' as const };

describe('the dataProvider derived from declarations', () => {
  beforeEach(() => signIn(admin));

  it('lists by the list route with offset/limit from react-admin page/perPage, and reads rows, count and countExact', async () => {
    const calls = recordCalls(() => ({ message: 'Users', data: { rows: [{ id: 'u-1' }], count: 31, countExact: true } }));
    const result = await provider.getList('users', { pagination: page(3), sort: { field: 'createdAt', order: 'DESC' }, filter: {} });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /users/20/10']);
    expect(result).toMatchObject({ data: [{ id: 'u-1' }], total: 31 });
    // Defaults: offset 0, limit 10.
    await provider.getList('users', { pagination: undefined as never, sort: noSort, filter: {} });
    expect(calls[1].path).toBe('/users/0/10');
  });

  it('past the count cap it gives no total, and says a next page exists while pages come back full', async () => {
    const rows = (n: number) => Array.from({ length: n }, (_, index) => ({ id: `r-${index}` }));
    let size = 10;
    recordCalls(() => ({ message: 'Audits', data: { rows: rows(size), count: 10000, countExact: false } }));
    const full = await provider.getList('audits', { pagination: page(2000), sort: noSort, filter: {} });
    expect(full.total).toBeUndefined();
    expect(full.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: true });
    expect(full.meta).toEqual({ count: 10000, countExact: false });
    size = 4;
    const short = await provider.getList('audits', { pagination: page(2001), sort: noSort, filter: {} });
    expect(short.pageInfo?.hasNextPage).toBe(false);
  });

  it('filters through the filter route: users put LIMIT before OFFSET, and the body is exactly the filled filter fields', async () => {
    const calls = recordCalls();
    await provider.getList('users', {
      pagination: page(2, 25),
      sort: { field: 'createdAt', order: 'DESC' },
      filter: {
        workspace: ['w-1', 'w-2'],
        role: [],
        status: 'active',
        startDate: '2026-01-01',
        endDate: '',
        search: 'ada',
        q: 'not a filter field',
        other: 1,
      },
    });
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/users/filter/25/25/DESC/createdAt',
        body: { workspace: ['w-1', 'w-2'], status: 'active', startDate: '2026-01-01', search: 'ada' },
        contentType: 'application/json',
      },
    ]);
  });

  it('a sort other than the default goes through the filter route even without a filter; a sort on an unsortable field is none', async () => {
    const calls = recordCalls();
    await provider.getList('users', { pagination: page(1), sort: { field: 'email', order: 'ASC' }, filter: {} });
    await provider.getList('users', { pagination: page(1), sort: { field: 'createdAt', order: 'ASC' }, filter: {} });
    // react-admin's own default (a reference input's, say) is not a sort the server knows.
    await provider.getList('users', { pagination: page(1), sort: { field: 'id', order: 'DESC' }, filter: {} });
    await provider.getList('users', { pagination: page(1), sort: { field: 'firstName', order: 'ASC' }, filter: { status: 'active' } });
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`)).toEqual([
      'POST /users/filter/10/0/ASC/email {}',
      'POST /users/filter/10/0/ASC/createdAt {}',
      'GET /users/0/10 null',
      'POST /users/filter/10/0/DESC/createdAt {"status":"active"}',
    ]);
  });

  it("sends each list's own default sort: roles DESC by updatedAt, sessions ASC by isDeleted", async () => {
    const calls = recordCalls();
    await provider.getList('roles', { pagination: page(1), sort: { field: 'updatedAt', order: 'DESC' }, filter: { type: 'custom' } });
    await provider.getList('sessions', { pagination: page(1), sort: { field: 'isDeleted', order: 'ASC' }, filter: { status: 'active' } });
    // react-admin may leave the sort empty: the declared default is sent.
    await provider.getList('sessions', { pagination: page(1), sort: noSort, filter: { status: 'ended' } });
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`)).toEqual([
      'POST /roles/filter/0/10/DESC/updatedAt {"type":"custom"}',
      'POST /session/filter/0/10/ASC/isDeleted {"status":"active"}',
      'POST /session/filter/0/10/ASC/isDeleted {"status":"ended"}',
    ]);
  });

  it('the audit filter also carries offset and limit in its body; booleans and false are kept, empties dropped', async () => {
    const calls = recordCalls();
    await provider.getList('audits', {
      pagination: page(3, 50),
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { model: 'user', search: null },
    });
    await provider.getList('apikeys', {
      pagination: page(1),
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { isActive: false, isDeleted: 'true' },
    });
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`)).toEqual([
      'POST /system/audits/filter/100/50 {"model":"user","offset":100,"limit":50}',
      'POST /apikey/filter/0/10 {"isActive":false,"isDeleted":"true"}',
    ]);
  });

  it('the search text alone goes through the search route: in the path (GET) or in the body with paging (POST)', async () => {
    const calls = recordCalls();
    await provider.getList('notifications', {
      pagination: page(2),
      sort: { field: 'createdAt', order: 'DESC' },
      filter: { search: 'disk full/50%' },
    });
    await provider.getList('roles', { pagination: page(1), sort: { field: 'updatedAt', order: 'DESC' }, filter: { search: 'ops' } });
    // With another filter, or another sort, the filter route.
    await provider.getList('roles', {
      pagination: page(1),
      sort: { field: 'updatedAt', order: 'DESC' },
      filter: { search: 'ops', type: 'custom' },
    });
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`)).toEqual([
      'GET /notification/search/10/10/disk%20full%2F50%25 null',
      'POST /roles/search/0/10 {"search":"ops","offset":0,"limit":10}',
      'POST /roles/filter/0/10/DESC/updatedAt {"type":"custom","search":"ops"}',
    ]);
  });

  it('an unpaged list (GET /workspaces) is paged, searched and sorted here; it accepts { data: { rows } }, { data: [...] } or a bare array', async () => {
    const all = Array.from({ length: 23 }, (_, index) => ({
      id: `w-${index}`,
      name: `Space ${String(index).padStart(2, '0')}`,
      memberCount: index % 5,
    }));
    let shape: 'rows' | 'array' | 'bare' = 'rows';
    const calls = recordCalls(() =>
      shape === 'rows'
        ? { message: 'ok', data: { rows: all, count: 23, countExact: true } }
        : shape === 'array'
          ? { message: 'ok', data: all }
          : all,
    );
    const second = await provider.getList('workspaces', { pagination: page(2), sort: noSort, filter: {} });
    expect(second.data.map((row) => row.id)).toEqual(all.slice(10, 20).map((row) => row.id));
    expect(second.total).toBe(23);
    shape = 'array';
    const searched = await provider.getList('workspaces', { pagination: page(1), sort: noSort, filter: { search: 'space 1' } });
    expect(searched.data.map((row) => row.name)).toEqual([
      'Space 10',
      'Space 11',
      'Space 12',
      'Space 13',
      'Space 14',
      'Space 15',
      'Space 16',
      'Space 17',
      'Space 18',
      'Space 19',
    ]);
    expect(searched.total).toBe(10);
    shape = 'bare';
    const sorted = await provider.getList('workspaces', { pagination: page(1, 3), sort: { field: 'name', order: 'DESC' }, filter: {} });
    expect(sorted.data.map((row) => row.name)).toEqual(['Space 22', 'Space 21', 'Space 20']);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET /workspaces', 'GET /workspaces', 'GET /workspaces']);
  });

  it('without a one-route, getOne and getMany read the list; a missing record is a 404', async () => {
    const calls = recordCalls(() => ({
      message: 'ok',
      data: {
        rows: [
          { id: 'w-1', name: 'Ops' },
          { id: 'w-2', name: 'Data' },
          { id: 'w-3', name: 'Sales' },
        ],
        count: 3,
      },
    }));
    expect((await provider.getOne('workspaces', { id: 'w-2' })).data).toEqual({ id: 'w-2', name: 'Data' });
    expect((await provider.getMany('workspaces', { ids: ['w-3', 'w-1'] })).data.map((row) => row.id).sort()).toEqual(['w-1', 'w-3']);
    await expect(provider.getOne('workspaces', { id: 'w-9' })).rejects.toMatchObject({ status: 404 });
    expect(calls.every((call) => call.method === 'GET' && call.path === '/workspaces')).toBe(true);
  });

  it('with a one-route, getOne reads { data } and getMany asks per id', async () => {
    const calls = recordCalls((seen) => ({ message: 'User', data: { id: seen.path.split('/').pop(), email: 'x@acme.test' } }));
    expect((await provider.getOne('users', { id: 'u 1' })).data).toEqual({ id: 'u%201', email: 'x@acme.test' });
    await provider.getMany('roles', { ids: ['r-1', 'r-2'] });
    expect(calls.map((call) => call.path)).toEqual(['/users/u%201', '/role/r-1', '/role/r-2']);
  });

  it("rejects with the server's message and status, as react-admin expects", async () => {
    server.use(http.get(`${API}/users/:id`, () => HttpResponse.json({ message: 'User not found' }, { status: 404 })));
    await expect(provider.getOne('users', { id: 'nope' })).rejects.toMatchObject({ message: 'User not found', status: 404 });
  });

  it('creates with the create fields only, empty ones left out; workspaces send a form body', async () => {
    const calls = recordCalls((seen) => ({ message: 'Created', data: { id: 'new-1', ...(seen.body as object) } }));
    const created = await provider.create('users', {
      data: { email: 'bob@acme.test', firstName: 'Bob', lastName: null, roleId: 'r-1', workspaceIds: [], isActive: true, id: 'ignored' },
    });
    await provider.create('workspaces', { data: { name: 'Ops', description: 'Operations', memberCount: 3 } });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/user', body: { email: 'bob@acme.test', firstName: 'Bob', roleId: 'r-1' } });
    expect(created).toMatchObject({ data: { id: 'new-1' }, meta: { message: 'Created' } });
    expect(calls[1]).toMatchObject({ method: 'POST', path: '/workspaces', body: { name: ['Ops'], description: ['Operations'] } });
    expect(calls[1].contentType).toContain('multipart/form-data');
  });

  it('updates with the changed form fields only; the workspace update is PUT /workspace with the id in its form body', async () => {
    const calls = recordCalls(() => ({ message: 'Saved' }));
    const previous = {
      id: 'u-1',
      email: 'ada@acme.test',
      firstName: 'Ada',
      lastName: 'Admin',
      roleId: 'r-1',
      workspaceIds: ['w-1'],
      isActive: true,
    };
    const result = await provider.update('users', {
      id: 'u-1',
      data: { ...previous, firstName: 'Adele', workspaceIds: ['w-1', 'w-2'], email: 'changed-but-not-editable@acme.test' },
      previousData: previous,
    });
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/user/profile/u-1',
      body: { firstName: 'Adele', workspaceIds: ['w-1', 'w-2'] },
    });
    expect(result).toMatchObject({ data: { id: 'u-1', firstName: 'Adele' }, meta: { message: 'Saved' } });

    await provider.update('workspaces', {
      id: 'w-7',
      data: { id: 'w-7', name: 'Ops 2', description: 'Same' },
      previousData: { id: 'w-7', name: 'Ops', description: 'Same' },
    });
    expect(calls[1]).toMatchObject({ method: 'PUT', path: '/workspace', body: { name: ['Ops 2'], id: ['w-7'] } });
    expect(calls[1].contentType).toContain('multipart/form-data');

    // A cleared field (null) reaches a form body as an empty field, so the server clears it.
    await provider.update('workspaces', {
      id: 'w-7',
      data: { id: 'w-7', name: 'Ops', description: null },
      previousData: { id: 'w-7', name: 'Ops', description: 'Old text' },
    });
    expect(calls[2].body).toEqual({ description: [''], id: ['w-7'] });
  });

  it('deletes by each declared route: DELETE /users/{id}, and PUT /workspace/{id} for a workspace', async () => {
    const calls = recordCalls(() => ({ message: 'Deleted' }));
    const removed = await provider.delete('users', { id: 'u-2', previousData: { id: 'u-2', email: 'bob@acme.test' } });
    await provider.delete('workspaces', { id: 'w-3' });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['DELETE /users/u-2', 'PUT /workspace/w-3']);
    expect(removed).toEqual({ data: { id: 'u-2', email: 'bob@acme.test' }, meta: { message: 'Deleted' } });
  });

  it('deleteMany calls the per-record route for every id and reports the first failure after trying them all', async () => {
    const calls: string[] = [];
    server.use(
      http.delete(`${API}/users/:id`, ({ params }) => {
        calls.push(String(params.id));
        return params.id === 'u-2'
          ? HttpResponse.json({ message: 'You cannot delete yourself' }, { status: 400 })
          : HttpResponse.json({ message: 'Deleted' });
      }),
    );
    await expect(provider.deleteMany('users', { ids: ['u-1', 'u-2', 'u-3'] })).rejects.toMatchObject({
      message: 'You cannot delete yourself',
    });
    expect(calls).toEqual(['u-1', 'u-2', 'u-3']);
  });

  it('activates by two paths (API keys) or by one path with { isActive } (roles); updateMany of the flag uses them too', async () => {
    const calls = recordCalls((seen) => ({
      message: seen.path.includes('deactivate') || (seen.body as { isActive?: boolean })?.isActive === false ? 'Deactivated' : 'Activated',
      data: { id: 'x' },
    }));
    expect(await provider.activate('apikeys', { id: 'k-1', active: true })).toEqual({ data: { id: 'x' }, message: 'Activated' });
    expect(await provider.activate('apikeys', { id: 'k-1', active: false })).toMatchObject({ message: 'Deactivated' });
    await provider.activate('roles', { id: 'r-1', active: false });
    await provider.updateMany('roles', { ids: ['r-2', 'r-3'], data: { isActive: true } });
    expect(calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body ?? null)}`)).toEqual([
      'PUT /apikey/activate/k-1 null',
      'PUT /apikey/deactivate/k-1 null',
      'PUT /roles/activate/r-1 {"isActive":false}',
      'PUT /roles/activate/r-2 {"isActive":true}',
      'PUT /roles/activate/r-3 {"isActive":true}',
    ]);
  });

  it('reads filter props and cards', async () => {
    const calls = recordCalls((seen) =>
      seen.path.endsWith('cards')
        ? { message: 'Cards', data: { cards: [{ key: 'total', label: 'Total', value: 12, link: '/users' }] } }
        : { message: 'Props', data: { status: [{ id: 'active', name: 'Active' }], type: ['custom', 'system'] } },
    );
    expect(await provider.getFilterProps('roles')).toEqual({
      status: [{ id: 'active', name: 'Active' }],
      type: [
        { id: 'custom', name: 'custom' },
        { id: 'system', name: 'system' },
      ],
    });
    expect(await provider.getFilterProps('notifications')).toHaveProperty('status');
    expect(await provider.getCards('users')).toEqual([{ key: 'total', label: 'Total', value: 12, link: '/users' }]);
    expect(calls.map((call) => call.path)).toEqual(['/roles/filter/props/', '/notification/options', '/users/cards']);
  });

  it('prepareList starts what a list page asks for as it opens, and the page then takes those answers', async () => {
    const calls = recordCalls((seen) =>
      seen.path.endsWith('cards')
        ? { message: 'Cards', data: { cards: [{ key: 'total', label: 'Total', value: 1 }] } }
        : seen.path.endsWith('props')
          ? { message: 'Props', data: { status: [{ id: 'active', name: 'Active' }] } }
          : { message: 'Users', data: { rows: [{ id: 'u-1' }], count: 1, countExact: true } },
    );
    try {
      provider.prepareList('users');
      provider.prepareList('widgets'); // not declared: nothing
      await vi.waitFor(() => expect(calls.map((call) => call.path).sort()).toEqual(['/users/0/10', '/users/cards', '/users/filter/props']));
      const list = await provider.getList('users', { pagination: page(1), sort: { field: 'createdAt', order: 'DESC' }, filter: {} });
      expect(list).toMatchObject({ data: [{ id: 'u-1' }], total: 1 });
      expect(await provider.getCards('users')).toEqual([{ key: 'total', label: 'Total', value: 1 }]);
      expect(await provider.getFilterProps('users')).toEqual({ status: [{ id: 'active', name: 'Active' }] });
      expect(calls).toHaveLength(3);
      // Another page is another call.
      await provider.getList('users', { pagination: page(2), sort: { field: 'createdAt', order: 'DESC' }, filter: {} });
      expect(calls.map((call) => call.path)).toContain('/users/10/10');
    } finally {
      forgetHeadStarts();
    }
  });

  it('rejects what no route is declared for, naming the resource and the method', async () => {
    await expect(provider.getList('widgets', { pagination: page(1), sort: noSort, filter: {} })).rejects.toThrow(
      'The console cannot getList "widgets"',
    );
    await expect(provider.delete('roles', { id: 'r-1' })).rejects.toThrow('The console cannot delete "roles"');
    await expect(provider.create('sessions', { data: {} })).rejects.toThrow('The console cannot create "sessions"');
    await expect(provider.activate('users', { id: 'u-1', active: true })).rejects.toThrow('The console cannot activate "users"');
  });

  it('the registered outbox lists through its declared route', async () => {
    const calls = recordCalls(() => ({ message: 'Mail outbox', data: { rows: [{ id: 'm-1' }], count: 1 } }));
    const result = await dataProvider.getList('outbox', { pagination: page(1), sort: noSort, filter: {} });
    expect(calls.map((call) => call.path)).toEqual(['/mail/outbox/0/10']);
    expect(result.total).toBe(1);
  });

  it('fills path templates and refuses a missing value; reads the list answer shapes', () => {
    expect(fillPath('/a/{limit}/{offset}/{order}/{field}', { offset: 0, limit: 10, order: 'DESC', field: 'createdAt' })).toBe(
      '/a/10/0/DESC/createdAt',
    );
    expect(() => fillPath('/a/{id}', {})).toThrow('The path /a/{id} needs a value for {id}');
    expect(readList([{ id: 1 }])).toEqual({ rows: [{ id: 1 }] });
    expect(readList({ data: [{ id: 1 }] })).toEqual({ rows: [{ id: 1 }] });
    expect(readList({ data: { rows: [], count: '7', countExact: false } })).toEqual({ rows: [], count: 7, countExact: false });
    expect(() => readList({ data: {} })).toThrow('data.rows');
  });
});
