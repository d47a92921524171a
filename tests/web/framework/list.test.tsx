import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { API, FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn, widget, widgetApi, widgets } from './harness';
import { http, HttpResponse } from 'msw';
import { server } from '../msw';
import { defineResource } from '../../../src/framework/types';
import { bodyRows, loadedTable } from '../listPage';

function columnHeaders(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('columnheader')
    .map((cell) => cell.textContent ?? '')
    .filter((text) => text !== '' && text !== 'Actions');
}

/** The table once its rows are in (react-admin shows a placeholder table while loading). */
describe('a declared list', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  it('shows the rows with the declared columns (hidden ones left out), summary cards above, and pages by offset/limit', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 23 }, (_, index) => widget(index + 1)));
    const view = renderDeclared([widgets], { path: '/widgets' });

    const table = await loadedTable('Widget 0001');
    expect(columnHeaders(table)).toEqual(['Name', 'Email', 'Kind', 'Condition', 'Active', 'Created']);
    expect(bodyRows(table)).toHaveLength(10);
    const first = bodyRows(table)[0];
    expect(first).toHaveTextContent('Widget 0001');
    expect(first).toHaveTextContent('w1@acme.test');
    // A status shows its choice's translated name.
    expect(within(bodyRows(table)[2]).getByText('Broken')).toBeInTheDocument();
    expect(screen.getByText('1–10 of 23')).toBeInTheDocument();

    const cards = screen.getByRole('region', { name: 'Summary' });
    // A card label is translated by its key when the resource has one, else the server's label.
    expect(within(cards).getByText('All widgets').closest('[data-card]')).toHaveTextContent('23');
    expect(within(cards).getByText('Active').closest('[data-card]')).toHaveTextContent('11');

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[0]).toHaveTextContent('Widget 0011'));
    expect(screen.getByText('11–20 of 23')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('21–23 of 23')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    expect(api.seen(/GET \/widgets\/\d/)).toEqual(['GET /widgets/0/10', 'GET /widgets/10/10', 'GET /widgets/20/10']);

    // A card with a link leads there.
    await userEvent.click(within(cards).getByText('Active'));
    await waitFor(() => expect(view.location().search).toContain('filter='));
  });

  it('sorts by a sortable column through the filter path, and leaves the other columns unsortable', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 5 }, (_, index) => widget(index + 1)));
    renderDeclared([widgets], { path: '/widgets' });
    const table = await loadedTable('Widget 0001');
    await userEvent.click(within(table).getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(api.seen(/POST/)).toEqual(['POST /widgets/filter/10/0/ASC/name']));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[0]).toHaveTextContent('Widget 0001'));
    await userEvent.click(within(screen.getByRole('table')).getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(api.seen(/POST/)).toContain('POST /widgets/filter/10/0/DESC/name'));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[0]).toHaveTextContent('Widget 0005'));
    // Kind is not declared sortable: its header is not a sort button.
    expect(within(screen.getByRole('table')).queryByRole('button', { name: /sort by kind/i })).toBeNull();
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({});
  });

  it('filters with choices from the filter-props route and sends exactly the filled filter fields', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 30 }, (_, index) => widget(index + 1)));
    renderDeclared([widgets], { path: '/widgets' });
    await loadedTable('Widget 0001');

    await userEvent.click(screen.getByRole('combobox', { name: 'Condition' }));
    const options = await screen.findAllByRole('option');
    // The props route's choices (plus the empty one), not the field's own.
    expect(options.map((option) => option.textContent)).toEqual(expect.arrayContaining(['Fine', 'Broken']));
    expect(options.map((option) => option.textContent)).not.toContain('Worn');
    await userEvent.click(screen.getByRole('option', { name: 'Broken' }));
    await waitFor(() => expect(api.seen(/POST/)).toHaveLength(1));
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => [call.path, call.body])).toEqual([
      ['/widgets/filter/10/0/DESC/createdAt', { status: 'broken' }],
    ]);
    await waitFor(() => expect(screen.getByText('1–10 of 10')).toBeInTheDocument());

    await userEvent.type(screen.getByPlaceholderText('Search widgets'), '002');
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ status: 'broken', search: '002' }));
    await waitFor(() =>
      expect(bodyRows(screen.getByRole('table')).map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual([
        'Widget 0027',
        'Widget 0024',
        'Widget 0021',
      ]),
    );
    expect(api.seen(/filter\/props/)).toHaveLength(1);
  });

  it('a failed search or filter is said in the list with a retry, not raised as a toast; the filter bar stays', async () => {
    signIn();
    widgetApi(Array.from({ length: 12 }, (_, index) => widget(index + 1)));
    renderDeclared([widgets], { path: '/widgets' });
    await loadedTable('Widget 0001');
    server.use(
      http.post(`${API}/widgets/filter/*`, () => HttpResponse.json({ message: 'The search is busy' }, { status: 503 }), { once: true }),
    );
    await userEvent.type(screen.getByPlaceholderText('Search widgets'), '0011');
    const failed = await screen.findByText('The list could not be loaded: The search is busy');
    // The only alert on the page is the list's own: no toast.
    expect(screen.getAllByRole('alert')).toEqual([failed.closest('[role="alert"]')]);
    expect(screen.getByPlaceholderText('Search widgets')).toHaveValue('0011');

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(bodyRows(screen.getByRole('table')).map((row) => within(row).getAllByRole('cell')[1].textContent)).toEqual(['Widget 0011']),
    );
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
  });

  it('a date range filter sends startDate and endDate', async () => {
    signIn();
    const api = widgetApi([widget(1)]);
    renderDeclared([widgets], { path: '/widgets' });
    await loadedTable('Widget 0001');
    const from = screen.getByLabelText('From');
    await userEvent.type(from, '2026-01-01');
    await waitFor(() => expect(api.calls.at(-1)?.body).toEqual({ startDate: '2026-01-01' }));
    expect(api.calls.at(-1)?.path).toBe('/widgets/filter/10/0/DESC/createdAt');
  });

  it('says "10,000+" when the count is capped, and still pages on while pages come back full', async () => {
    signIn();
    const api = widgetApi(Array.from({ length: 35 }, (_, index) => widget(index + 1)));
    api.countCap = 20;
    renderDeclared([widgets], { path: '/widgets' });
    await loadedTable('Widget 0001');
    expect(screen.getByText('1–10 of 20+')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('11–20 of 20+')).toBeInTheDocument());
    // Past the count: still a full page, so on.
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('21–30 of 20+')).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(screen.getByText('31–35 of 20+')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    expect(api.seen(/GET \/widgets\/\d/)).toEqual(['GET /widgets/0/10', 'GET /widgets/10/10', 'GET /widgets/20/10', 'GET /widgets/30/10']);
  });

  it('the capped count reads "10,000+" with the real cap', async () => {
    signIn();
    server.use(
      http.get(`${API}/widgets/cards`, () => HttpResponse.json({ message: 'Cards', data: { cards: [] } })),
      http.get(`${API}/widgets/filter/props`, () => HttpResponse.json({ message: 'Props', data: {} })),
      http.get(`${API}/widgets/:offset/:limit`, () =>
        HttpResponse.json({
          message: 'Widgets',
          data: { rows: Array.from({ length: 10 }, (_, index) => widget(index)), count: 10000, countExact: false },
        }),
      ),
    );
    renderDeclared([widgets], { path: '/widgets' });
    expect(await screen.findByText('1–10 of 10,000+')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go to next page' })).toBeEnabled();
  });

  it('rows open the edit view, or the show view of a read-only resource', async () => {
    signIn();
    widgetApi([widget(1), widget(2)]);
    const view = renderDeclared([widgets], { path: '/widgets' });
    const table = await loadedTable('Widget 0002');
    // The email is the row's text, not a mailto link: a click on it opens the record too.
    const email = within(table).getByText('w1@acme.test');
    expect(email.closest('a')).toBeNull();
    await userEvent.click(email);
    await waitFor(() => expect(view.location().pathname).toBe('/widgets/w-1'));
    expect(await screen.findByDisplayValue('Widget 0001')).toBeInTheDocument();
  });

  it('an unpaged list without a one-route: pages here, and its show view finds the record in the list', async () => {
    signIn();
    const places = defineResource({
      name: 'places',
      messages: { en: { name: 'Place |||| Places', fields: { name: 'Name' } } },
      fields: [{ source: 'name', type: 'text', sortable: true }],
      routes: { list: '/places' },
    });
    const calls: string[] = [];
    server.use(
      http.get(`${API}/places`, () => {
        calls.push('GET /places');
        return HttpResponse.json({
          message: 'Places',
          data: Array.from({ length: 12 }, (_, index) => ({ id: `p-${index}`, name: `Place ${index}` })),
        });
      }),
    );
    const view = renderDeclared([places], { path: '/places' });
    const table = await loadedTable('Place 0');
    expect(bodyRows(table)).toHaveLength(10);
    expect(screen.getByText('1–10 of 12')).toBeInTheDocument();
    await userEvent.click(within(table).getByRole('button', { name: /sort by name/i }));
    // Sorted as text, here: Place 0, Place 1, Place 10, …
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[2]).toHaveTextContent('Place 10'));
    await userEvent.click(within(screen.getByRole('table')).getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))[0]).toHaveTextContent('Place 9'));
    await userEvent.click(within(screen.getByRole('table')).getByText('Place 9'));
    await waitFor(() => expect(view.location().pathname).toBe('/places/p-9/show'));
    expect(await screen.findByText('Place 9')).toBeInTheDocument();
    expect(calls.every((call) => call === 'GET /places')).toBe(true);
  });
});
