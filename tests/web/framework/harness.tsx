import { configure, render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Suspense, type ReactNode } from 'react';
import { Admin, memoryStore, Resource, TestMemoryRouter, type Store } from 'react-admin';
import type { Location } from 'react-router';
import { z } from 'zod';
import { alerts } from '../../../providers/alerts';
import { declaredProviders } from '../../../src/framework/providers';
import { clearCallerPolicies } from '../../../providers/policies';
import { setStoredUser } from '../../../providers/storage';
import type { SessionUser } from '../../../providers/types';
import { resourceProps } from '../../../src/framework/resourceProps';
import { defineResource, type AnyResourceDeclaration } from '../../../src/framework/types';
import { AlertBar } from '../../../src/shell/AlertBar';
import { server } from '../msw';
import { FilterRoomContext } from '../../../src/framework/list/filterRoom';

export const API = '/api/v1';

/** Per test: react-admin in jsdom takes seconds, and many more on a small machine running other suites too. */
export const FRAMEWORK_TIMEOUT_MS = 60_000;
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  alerts.clear();
  clearCallerPolicies();
});

/**
 * A throw-away resource, declared here and nowhere else: the framework must make a working
 * console page out of it with no code of its own.
 */
export interface Widget {
  id: string;
  name: string;
  email: string;
  kind: string;
  status: 'ok' | 'worn' | 'broken';
  size: number | null;
  isActive: boolean;
  createdAt: string;
  tags: { id: string; name: string }[];
}

export const widgetSchema = z.object({
  name: z.string().trim().min(3, 'at least 3 characters'),
  email: z.email('must be a valid email address'),
  size: z.number().int('a whole number').min(0, 'zero or more').optional(),
});

export const widgets = defineResource<Widget>({
  name: 'widgets',
  access: 'gadgets',
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Widget |||| Widgets',
      fields: {
        name: 'Name',
        email: 'Email',
        kind: 'Kind',
        status: 'Condition',
        size: 'Size',
        isActive: 'Active',
        createdAt: 'Created',
        tags: 'Tags',
      },
      filters: { kind: 'Kinds', status: 'Condition', search: 'Search widgets' },
      statuses: { ok: 'Fine', worn: 'Worn', broken: 'Broken' },
      cards: { total: 'All widgets' },
    },
  },
  fields: [
    { source: 'name', type: 'text', sortable: true, edit: true, create: true },
    { source: 'email', type: 'email', sortable: true, edit: true, create: true },
    { source: 'kind', type: 'text' },
    {
      source: 'status',
      type: 'status',
      choices: [
        { id: 'ok', name: 'resources.widgets.statuses.ok' },
        { id: 'worn', name: 'resources.widgets.statuses.worn' },
        { id: 'broken', name: 'resources.widgets.statuses.broken' },
      ],
    },
    { source: 'size', type: 'number', list: 'hidden', edit: true, create: true },
    { source: 'isActive', type: 'boolean' },
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'tags', type: 'chips', list: 'hidden' },
  ],
  filters: [
    { source: 'kind', type: 'multiselect' },
    { source: 'status', type: 'select' },
    { source: 'period', type: 'dateRange' },
    { source: 'search', type: 'search' },
  ],
  activation: { field: 'isActive' },
  routes: {
    list: '/widgets/{offset}/{limit}',
    filter: { path: '/widgets/filter/{limit}/{offset}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/widgets/filter/props',
    cards: '/widgets/cards',
    one: '/widget/{id}',
    create: '/widget',
    update: '/widget/{id}',
    delete: '/widget/{id}',
    activate: '/widget/activate/{id}',
    deactivate: '/widget/deactivate/{id}',
  },
  forms: { edit: { schema: widgetSchema }, create: { schema: widgetSchema } },
  can: { bulkDelete: true, bulkActivate: true },
});

export function widget(index: number, overrides: Partial<Widget> = {}): Widget {
  return {
    id: `w-${index}`,
    name: `Widget ${String(index).padStart(4, '0')}`,
    email: `w${index}@acme.test`,
    kind: index % 2 ? 'gear' : 'bolt',
    status: index % 3 === 0 ? 'broken' : 'ok',
    size: index,
    isActive: index % 2 === 0,
    createdAt: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
    tags: [{ id: 't-1', name: 'blue' }],
    ...overrides,
  };
}

export interface Call {
  method: string;
  path: string;
  body?: unknown;
}

export interface WidgetApi {
  rows: Widget[];
  calls: Call[];
  /** `METHOD path` of every call so far, optionally only those matching. */
  seen(filter?: RegExp): string[];
  /** Makes the next calls matching `pattern` fail with `status` and `message`. */
  failWith(pattern: RegExp, status: number, message: string): void;
  /** Answers lists as capped past this many rows (countExact false). */
  countCap: number;
}

/**
 * A server honouring the widget routes, over an in-memory table: lists, the filter route
 * (kind, status, startDate/endDate, search; sort from the path), props, cards, one, create,
 * update, delete and activation.
 */
export function widgetApi(initial: Widget[]): WidgetApi {
  const api: WidgetApi = {
    rows: [...initial],
    calls: [],
    countCap: 10_000,
    seen: (filter) => api.calls.map((call) => `${call.method} ${call.path}`).filter((line) => !filter || filter.test(line)),
    failWith: (pattern, status, message) => failures.push({ pattern, status, message }),
  };
  const failures: { pattern: RegExp; status: number; message: string }[] = [];

  const page = (rows: Widget[], offset: number, limit: number) => {
    const count = Math.min(rows.length, api.countCap);
    return HttpResponse.json({
      message: 'Widgets',
      data: { rows: rows.slice(offset, offset + limit), count, countExact: rows.length <= api.countCap },
    });
  };
  const find = (id: unknown) => api.rows.find((row) => row.id === id);
  const notFound = () => HttpResponse.json({ message: 'Widget not found' }, { status: 404 });

  server.use(
    http.all(`${API}/widget*`, async ({ request }) => {
      const url = new URL(request.url);
      const path = url.pathname.slice(API.length);
      const body =
        request.method === 'GET' || request.method === 'DELETE'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined);
      api.calls.push({ method: request.method, path, body });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/widgets/filter/props`, () =>
      HttpResponse.json({
        message: 'Props',
        data: {
          kind: [
            { id: 'gear', name: 'Gears' },
            { id: 'bolt', name: 'Bolts' },
          ],
          status: [
            { id: 'ok', name: 'Fine' },
            { id: 'broken', name: 'Broken' },
          ],
        },
      }),
    ),
    http.get(`${API}/widgets/cards`, () =>
      HttpResponse.json({
        message: 'Cards',
        data: {
          cards: [
            { key: 'total', label: 'Total', value: api.rows.length },
            {
              key: 'active',
              label: 'Active',
              value: api.rows.filter((row) => row.isActive).length,
              link: '/widgets?filter=%7B%22status%22%3A%22ok%22%7D',
            },
          ],
        },
      }),
    ),
    http.get(`${API}/widgets/:offset/:limit`, ({ params }) => page(api.rows, Number(params.offset), Number(params.limit))),
    http.post(`${API}/widgets/filter/:limit/:offset/:order/:field`, async ({ params, request }) => {
      const filter = (await request.json()) as Record<string, unknown>;
      const anyOf = (value: unknown) => (Array.isArray(value) ? value.map(String) : [String(value)]);
      let rows = api.rows.filter(
        (row) =>
          (filter.kind === undefined || anyOf(filter.kind).includes(row.kind)) &&
          (filter.status === undefined || anyOf(filter.status).includes(row.status)) &&
          (filter.search === undefined || row.name.toLowerCase().includes(String(filter.search).toLowerCase())) &&
          (filter.startDate === undefined || row.createdAt >= String(filter.startDate)) &&
          (filter.endDate === undefined || row.createdAt.slice(0, 10) <= String(filter.endDate)),
      );
      const field = String(params.field) as keyof Widget;
      const direction = params.order === 'ASC' ? 1 : -1;
      rows = [...rows].sort((a, b) => direction * String(a[field]).localeCompare(String(b[field])));
      return page(rows, Number(params.offset), Number(params.limit));
    }),
    http.get(`${API}/widget/:id`, ({ params }) => {
      const row = find(params.id);
      return row ? HttpResponse.json({ message: 'Widget', data: row }) : notFound();
    }),
    http.post(`${API}/widget`, async ({ request }) => {
      const body = (await request.json()) as Partial<Widget>;
      const row = widget(api.rows.length + 1000, { ...body, id: `w-new-${api.rows.length}` });
      api.rows.push(row);
      return HttpResponse.json({ message: 'Widget created', data: row }, { status: 201 });
    }),
    http.put(`${API}/widget/activate/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = true;
      return HttpResponse.json({ message: `${row.name} activated`, data: row });
    }),
    http.put(`${API}/widget/deactivate/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      row.isActive = false;
      return HttpResponse.json({ message: `${row.name} deactivated`, data: row });
    }),
    http.put(`${API}/widget/:id`, async ({ params, request }) => {
      const row = find(params.id);
      if (!row) return notFound();
      Object.assign(row, (await request.json()) as Partial<Widget>);
      return HttpResponse.json({ message: 'Widget saved', data: row });
    }),
    http.delete(`${API}/widget/:id`, ({ params }) => {
      const row = find(params.id);
      if (!row) return notFound();
      api.rows = api.rows.filter((candidate) => candidate !== row);
      return HttpResponse.json({ message: `${row.name} deleted` });
    }),
  );
  return api;
}

export const adminUser: SessionUser = {
  id: 'u-admin',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  isAdmin: true,
  accessToken: 'token-admin',
  token: 'token-admin',
  auth: true,
  navItems: { userNavItemJson: { items: [] } },
  impersonator: null,
};

export const plainUser: SessionUser = {
  ...adminUser,
  id: 'u-bob',
  email: 'bob@acme.test',
  firstName: 'Bob',
  isAdmin: false,
  accessToken: 'token-bob',
  token: 'token-bob',
};

export function signIn(user: SessionUser = adminUser): SessionUser {
  setStoredUser(user);
  return user;
}

/** `GET /authorization/user/policies` answering the given policies; counts its calls. */
export function mockPolicies(policies: { resource: string; actions: string[] }[], isAdmin = false) {
  let calls = 0;
  server.use(
    http.get(`${API}/authorization/user/policies`, () => {
      calls += 1;
      return HttpResponse.json({ message: 'Policies', data: { isAdmin, policies } });
    }),
  );
  return { calls: () => calls };
}

function TestLayout({ children }: { children?: ReactNode }) {
  return (
    <main>
      <AlertBar />
      <Suspense fallback={null}>{children}</Suspense>
    </main>
  );
}

export interface Rendered {
  location(): Location;
  store: Store;
}

/**
 * Declarations rendered the way MainApp renders the registry: react-admin with providers made
 * from these declarations only, one <Resource> each, the alert bar above the page.
 */
export function renderDeclared(
  declarations: AnyResourceDeclaration[],
  {
    path,
    store = memoryStore(),
    filterRoom = Number.POSITIVE_INFINITY,
  }: {
    path: string;
    store?: Store;
    /** How wide the page's content is (the console's frame says so); unbounded by default. */ filterRoom?: number;
  },
): Rendered {
  let current: Location | null = null;
  render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(location) => (current = location)}>
      <FilterRoomContext.Provider value={filterRoom}>
        <Admin disableTelemetry requireAuth loginPage={false} store={store} layout={TestLayout} {...declaredProviders(declarations)}>
          {declarations.map((declaration) => (
            <Resource key={declaration.name} {...resourceProps(declaration)} />
          ))}
        </Admin>
      </FilterRoomContext.Provider>
    </TestMemoryRouter>,
  );
  return {
    store,
    location() {
      if (!current) throw new Error('The router has not rendered yet');
      return current;
    },
  };
}

export interface ColumnsServer {
  puts: unknown[];
  deletes: string[];
}

/** The column-choice routes, answering `choices` for GET and recording the changes. */
export function columnsServer(choices: Record<string, unknown> = {}): ColumnsServer {
  const record: ColumnsServer = { puts: [], deletes: [] };
  server.use(
    http.get(`${API}/lists/columns`, () => HttpResponse.json({ message: 'Column choices', data: choices })),
    http.put(`${API}/lists/:listKey/columns`, async ({ request, params }) => {
      const body = (await request.json()) as { scope: string };
      record.puts.push({ listKey: params.listKey, ...body });
      return HttpResponse.json({
        message: body.scope === 'tenant' ? 'Saved as the default columns for everyone' : 'Columns saved',
        data: body,
      });
    }),
    http.delete(`${API}/lists/:listKey/columns`, ({ request, params }) => {
      record.deletes.push(`${params.listKey}?${new URL(request.url).searchParams}`);
      return HttpResponse.json({ message: 'Columns are back to the default' });
    }),
  );
  return record;
}
