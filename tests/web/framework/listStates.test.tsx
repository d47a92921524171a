import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../msw';
import { defineResource } from '../../../src/framework/types';
import { API, FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets } from './harness';
import { bodyRows } from '../listPage';

/** Widgets whose declaration says what they are. */
const described = defineResource({
  ...widgets,
  messages: { en: { ...widgets.messages.en, description: 'Widgets are the small parts every machine is made of.' } },
});

describe('a declared list: empty states, sorting in the query, saved views', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('with no record at all, says what the thing is and offers its Create button', async () => {
    signIn();
    widgetApi([]);
    const view = renderDeclared([described], { path: '/widgets' });
    expect(await screen.findByRole('heading', { name: 'No widgets yet' })).toBeInTheDocument();
    expect(screen.getByText('Widgets are the small parts every machine is made of.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
    await userEvent.click(await screen.findByRole('link', { name: 'Create' }));
    await waitFor(() => expect(view.location()?.pathname).toBe('/widgets/create'));
  });

  it('with filters that match nothing, says so and clears them in one click', async () => {
    signIn();
    const api = widgetApi([widget(1), widget(2)]);
    renderDeclared([described], { path: '/widgets?filter=%7B%22status%22%3A%22worn%22%7D' });
    expect(await screen.findByText('No widgets match the current filters.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'No widgets yet' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await screen.findByText('Widget 0001', { selector: 'td, td *' });
    expect(api.seen(/GET \/widgets\/0\/10/)).toHaveLength(1);
  });

  it('sorts a list whose filter route carries the sort in its query', async () => {
    signIn();
    const gizmos = defineResource({
      name: 'gizmos',
      messages: { en: { name: 'Gizmo |||| Gizmos', fields: { name: 'Name', kind: 'Kind' } } },
      fields: [
        { source: 'name', type: 'text', sortable: true },
        { source: 'kind', type: 'text' },
      ],
      routes: {
        list: '/gizmos/{offset}/{limit}',
        filter: { path: '/gizmos/filter/{offset}/{limit}?sort={field}&order={order}', sort: { field: 'createdAt', order: 'DESC' } },
      },
    });
    const rows = [
      { id: 'g-1', name: 'Bravo', kind: 'x' },
      { id: 'g-2', name: 'alpha', kind: 'y' },
    ];
    const seen: string[] = [];
    server.use(
      http.get(`${API}/gizmos/:offset/:limit`, () => HttpResponse.json({ message: 'Gizmos', data: { rows, count: 2, countExact: true } })),
      http.post(`${API}/gizmos/filter/:offset/:limit`, ({ request }) => {
        const url = new URL(request.url);
        seen.push(`${url.pathname.slice(API.length)}${url.search}`);
        const order = url.searchParams.get('order') === 'ASC' ? 1 : -1;
        const sorted = [...rows].sort((a, b) => order * a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
        return HttpResponse.json({ message: 'Gizmos', data: { rows: sorted, count: 2, countExact: true } });
      }),
    );
    renderDeclared([gizmos], { path: '/gizmos' });
    const table = await screen.findByRole('table');
    await screen.findByText('Bravo', { selector: 'td, td *' });
    await userEvent.click(within(table).getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(seen).toEqual(['/gizmos/filter/0/10?sort=name&order=ASC']));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[0]).toHaveTextContent('alpha'));
    expect(within(screen.getByRole('table')).queryByRole('button', { name: /sort by kind/i })).toBeNull();
  });

  it('saves the filters and sort as a named view on the server, applies it and deletes it', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 6 }, (_, index) => widget(index + 1)));
    const kept: Array<Record<string, unknown>> = [];
    const posted: unknown[] = [];
    server.use(
      http.get(`${API}/lists/widgets/views`, () => HttpResponse.json({ message: 'Saved views', data: kept })),
      http.post(`${API}/lists/widgets/views`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        posted.push(body);
        const view = { id: `v-${kept.length + 1}`, createdAt: '2026-01-01T00:00:00.000Z', hidden: null, order: null, ...body };
        kept.push(view);
        return HttpResponse.json({ message: 'View saved', data: view }, { status: 201 });
      }),
      http.delete(`${API}/lists/widgets/views/:id`, ({ params }) => {
        kept.splice(
          kept.findIndex((view) => view.id === params.id),
          1,
        );
        return HttpResponse.json({ message: 'View deleted' });
      }),
    );
    renderDeclared([widgets], { path: '/widgets?filter=%7B%22status%22%3A%22broken%22%7D&order=ASC&sort=name' });
    await screen.findByText('Widget 0003', { selector: 'td, td *' });

    // The toolbar comes once the first rows are painted (slow on a busy machine).
    await userEvent.click(await screen.findByRole('button', { name: 'Views' }, { timeout: 30_000 }));
    expect(await screen.findByText('No saved views yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Save current view…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save this view' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Broken ones');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ name: 'Broken ones', filter: { status: 'broken' }, sort: { field: 'name', order: 'ASC' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('View "Broken ones" saved');

    // Cleared, then applied again from the menu.
    await userEvent.click(await screen.findByRole('button', { name: 'Views' }));
    const before = api.seen(/POST \/widgets\/filter/).length;
    await userEvent.click(await screen.findByRole('menuitem', { name: /Broken ones/ }));
    await waitFor(() => expect(api.seen(/POST \/widgets\/filter/).length).toBeGreaterThanOrEqual(before));
    expect(api.calls.filter((call) => call.method === 'POST').at(-1)).toMatchObject({
      path: '/widgets/filter/10/0/ASC/name',
      body: { status: 'broken' },
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Views' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete view Broken ones' }));
    await waitFor(() => expect(kept).toHaveLength(0));
  });
});
