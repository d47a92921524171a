import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { QueryClient } from '@tanstack/react-query';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { createDataProvider } from '../../../providers/dataProvider';
import { callsOf } from '../../../src/framework/declaration';
import { declaredProviders } from '../../../src/framework/providers';
import { RelatedList } from '../../../src/framework/related/RelatedList';
import { defineResource } from '../../../src/framework/types';
import { server } from '../msw';
import { API, FRAMEWORK_TIMEOUT_MS, signIn } from './harness';

/**
 * Related lists: a throw-away resource whose records belong to a widget, listed on the widget's
 * page by react-admin's getManyReference — the related route its contract declares, else its
 * filter route filtered by the widget.
 */

interface Part {
  id: string;
  name: string;
  weight: number;
  widgetId: string;
}

const parts = defineResource<Part>({
  name: 'parts',
  messages: { en: { name: 'Part |||| Parts', fields: { name: 'Name', weight: 'Weight' }, empty: 'No parts yet.' } },
  fields: [
    { source: 'name', type: 'text' },
    { source: 'weight', type: 'number' },
    { source: 'widgetId', type: 'text', list: 'hidden' },
  ],
  filters: [
    { source: 'widget', type: 'select' },
    { source: 'search', type: 'search' },
  ],
  routes: {
    list: '/parts/{offset}/{limit}',
    filter: { path: '/parts/filter/{offset}/{limit}', sort: { field: 'name', order: 'ASC' } },
  },
  related: { widget: '/widget/{id}/parts?offset={offset}&limit={limit}' },
});

const WIDGET = 'w-1';
const part = (index: number): Part => ({ id: `p-${index}`, name: `Part ${index}`, weight: index * 10, widgetId: WIDGET });

/** The widget's parts behind `GET /widget/{id}/parts?offset&limit`, recording each call. */
function partsApi(all: Part[], options: { fail?: string } = {}) {
  const seen: string[] = [];
  server.use(
    http.get(`${API}/widget/:id/parts`, ({ params, request }) => {
      const url = new URL(request.url);
      seen.push(`${url.pathname.slice(API.length)}${url.search}`);
      if (options.fail) return HttpResponse.json({ message: options.fail }, { status: 403 });
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const mine = all.filter((row) => row.widgetId === params.id);
      return HttpResponse.json({ message: 'Parts', data: { rows: mine.slice(offset, offset + limit), count: mine.length } });
    }),
  );
  return seen;
}

function renderParts(props: { perPage?: number } = {}) {
  render(
    <TestMemoryRouter initialEntries={['/widgets/w-1/show']}>
      <AdminContext
        store={memoryStore()}
        queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
        {...declaredProviders([parts])}
      >
        <RelatedList of={parts} target="widget" record={{ id: WIDGET }} label="Parts" empty="resources.parts.empty" {...props} />
      </AdminContext>
    </TestMemoryRouter>,
  );
}

const rows = () =>
  within(screen.getByRole('table', { name: 'Parts' }))
    .getAllByRole('row')
    .slice(1);

describe('a related list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  beforeEach(() => {
    signIn();
  });

  it("lists the record's own rows from the contract's related route, with the declared columns and no pager when they fit", async () => {
    const seen = partsApi([part(1), part(2), part(3)]);
    renderParts();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(seen).toEqual(['/widget/w-1/parts?offset=0&limit=10']);
    expect(
      within(screen.getByRole('table', { name: 'Parts' }))
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'Weight']);
    expect(within(rows()[1]).getByText('Part 2')).toBeInTheDocument();
    expect(within(rows()[1]).getByText('20')).toBeInTheDocument();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('pages by offset and limit when there are more rows than a page', async () => {
    const seen = partsApi(Array.from({ length: 7 }, (_, index) => part(index + 1)));
    renderParts({ perPage: 3 });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(within(rows()[0]).getByText('Part 4')).toBeInTheDocument());
    expect(seen).toEqual(['/widget/w-1/parts?offset=0&limit=3', '/widget/w-1/parts?offset=3&limit=3']);
  });

  it('says so when there is none', async () => {
    partsApi([]);
    renderParts();
    expect(await screen.findByText('No parts yet.')).toBeInTheDocument();
  });

  it('shows the server’s refusal instead of rows', async () => {
    partsApi([part(1)], { fail: 'You may not read the parts' });
    renderParts();
    expect(await screen.findByText('You may not read the parts')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Parts' })).toBeNull();
  });
});

describe("the dataProvider's getManyReference", () => {
  beforeEach(() => {
    signIn();
  });

  it('falls back on the filter route with the target as a filter field when no related route is declared', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/parts/filter/:offset/:limit`, async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Parts', data: { rows: [part(5)], count: 1 } });
      }),
    );
    const provider = createDataProvider([callsOf({ ...parts, related: undefined })]);
    const result = await provider.getManyReference('parts', {
      target: 'widget',
      id: WIDGET,
      pagination: { page: 1, perPage: 5 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(result.data).toEqual([part(5)]);
    expect(result.total).toBe(1);
    expect(bodies).toEqual([{ widget: WIDGET }]);
  });

  it('refuses a target it has neither a related route nor a filter field for, naming both', async () => {
    const provider = createDataProvider([callsOf(parts)]);
    await expect(
      provider.getManyReference('parts', {
        target: 'owner',
        id: 'x',
        pagination: { page: 1, perPage: 5 },
        sort: { field: '', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toThrow('The resource "parts" declares no list by "owner" (related route or filter field)');
  });
});
