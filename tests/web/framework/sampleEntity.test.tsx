import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AdminContext, localStorageStore, memoryStore, TestMemoryRouter } from 'react-admin';
import { consoleMethods } from '../../../providers/dataProvider';
import { loadColumnChoices } from '../../../src/framework/columns/columnChoices';
import { COLUMN_SAVE_DELAY_MS } from '../../../src/framework/columns/useColumnChoices';
import { declaredProviders } from '../../../src/framework/providers';
import { RelatedList } from '../../../src/framework/related/RelatedList';
import { defineResource } from '../../../src/framework/types';
import { labelsContract, type Label } from '../../sample/labels-contract';
import { contractFake } from '../contractFake';
import { bodyRows, headers, loadedTable } from '../listPage';
import { columnsServer, FRAMEWORK_TIMEOUT_MS, renderDeclared, signIn } from './harness';

/**
 * "Adding a resource by declaration", proven: a sample entity (contract in tests/sample, declaration
 * here), against an API made from its contract (tests/web/contractFake.ts), gets its list, paging,
 * filters, forms checked by the contract's bodies, a related list and column choices.
 */

const COLOURS = ['red', 'blue', 'green'].map((colour) => ({ id: colour, name: `resources.labels.colours.${colour}` }));

const labels = defineResource<Label>({
  contract: labelsContract,
  recordRepresentation: 'name',
  messages: {
    en: {
      name: 'Label |||| Labels',
      fields: { name: 'Name', colour: 'Colour', isActive: 'Active', createdAt: 'Created' },
      filters: { colour: 'Colours', search: 'Search labels' },
      colours: { red: 'Red', blue: 'Blue', green: 'Green' },
      mine: 'Labels of this user',
      none: 'No labels.',
    },
  },
  // Types, sortability and the forms' checks come from the contract; the declaration says where fields show and how.
  fields: [
    { source: 'name', create: true, edit: true },
    { source: 'colour', type: 'select', choices: COLOURS, create: true, edit: true },
    { source: 'isActive' },
    { source: 'createdAt', list: 'hidden' },
  ],
  filters: [
    { source: 'colour', type: 'multiselect', choices: COLOURS },
    { source: 'search', type: 'search' },
  ],
});

const OWNER = '11111111-1111-4111-8111-111111111111';
const label = (index: number, overrides: Partial<Label> = {}): Label => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  name: `Label ${String(index).padStart(2, '0')}`,
  colour: (['red', 'blue', 'green'] as const)[index % 3],
  isActive: true,
  ownerId: index % 2 === 0 ? OWNER : null,
  createdAt: new Date(Date.UTC(2026, 10, 1) - index * 60_000).toISOString(),
  ...overrides,
});

function labelsApi(count: number) {
  return contractFake<Label>(
    labelsContract,
    Array.from({ length: count }, (_, index) => label(index + 1)),
    {
      created: (body, id) => ({ ...label(99), id, name: String(body.name), colour: body.colour as Label['colour'] }),
      filterProps: { colour: COLOURS },
      relatedBy: { owner: 'ownerId' },
    },
  );
}

describe('a sample entity declared over its contract', { timeout: FRAMEWORK_TIMEOUT_MS }, () => {
  beforeEach(() => {
    signIn();
    columnsServer();
  });

  it('lists its rows with the declared columns, pages them, and sorts a column the contract makes sortable', async () => {
    const api = labelsApi(12);
    renderDeclared([labels], { path: '/labels' });
    const table = await loadedTable('Label 01');
    expect(headers(table)).toEqual(['Name', 'Colour', 'Active']);
    expect(bodyRows(table)).toHaveLength(10);
    expect(within(bodyRows(table)[1]).getByText('Green')).toBeInTheDocument();
    expect(api.seen()).toContain('GET /labels/0/10');

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))).toHaveLength(2));

    await userEvent.click(within(screen.getByRole('table')).getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(api.seen(/filter/)).toContain('POST /labels/filter/0/10/ASC/name'));
  });

  it('filters with exactly the filled fields of the contract’s filter body', async () => {
    const api = labelsApi(12);
    renderDeclared([labels], { path: `/labels?filter=${encodeURIComponent(JSON.stringify({ colour: ['red'] }))}` });
    const table = await loadedTable('Label 03');
    expect(api.calls.find((call) => call.path.startsWith('/labels/filter'))).toEqual({
      method: 'POST',
      path: '/labels/filter/0/10/DESC/createdAt',
      body: { colour: ['red'] },
    });
    expect(bodyRows(table).map((row) => within(row).getByText(/^Label/).textContent)).toEqual([
      'Label 03',
      'Label 06',
      'Label 09',
      'Label 12',
    ]);

    await userEvent.type(screen.getByPlaceholderText('Search labels'), '12');
    await waitFor(() => expect(bodyRows(screen.getByRole('table'))).toHaveLength(1));
    expect(api.calls.at(-1)?.body).toEqual({ colour: ['red'], search: '12' });
  });

  it('creates with the contract’s create body, refusing what it refuses before anything is sent', async () => {
    const api = labelsApi(2);
    renderDeclared([labels], { path: '/labels/create' });
    await userEvent.type(await screen.findByLabelText('Name'), 'Urgent');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('must be red, blue or green')).toBeInTheDocument();
    expect(api.seen(/POST/)).toEqual([]);

    await userEvent.click(screen.getByRole('combobox', { name: 'Colour' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Blue' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'POST')).toEqual([
        { method: 'POST', path: '/label', body: { name: 'Urgent', colour: 'blue' } },
      ]),
    );
    expect(api.rows[0]).toMatchObject({ name: 'Urgent', colour: 'blue' });
  });

  it('edits sending only what changed, at the contract’s update path', async () => {
    const api = labelsApi(2);
    const first = api.rows[0];
    renderDeclared([labels], { path: `/labels/${first.id}` });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveValue('Label 01'));
    await userEvent.clear(name);
    await userEvent.type(name, 'Renamed');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([
        { method: 'PUT', path: `/label/${first.id}`, body: { name: 'Renamed' } },
      ]),
    );
  });

  it("shows a user's labels as a related list from the contract's related route", async () => {
    const api = labelsApi(5);
    render(
      <TestMemoryRouter>
        <AdminContext store={memoryStore()} {...declaredProviders([labels])}>
          <RelatedList of={labels} target="owner" record={{ id: OWNER }} label="resources.labels.mine" empty="resources.labels.none" />
        </AdminContext>
      </TestMemoryRouter>,
    );
    const table = await screen.findByRole('table', { name: 'Labels of this user' });
    await waitFor(() => expect(bodyRows(table)).toHaveLength(2));
    expect(api.seen()).toEqual([`GET /user/${OWNER}/labels?offset=0&limit=10`]);
  });

  it('offers its hidden columns in the Columns menu and keeps the choice on the server', async () => {
    labelsApi(3);
    const { puts } = columnsServer();
    const store = localStorageStore();
    await loadColumnChoices(store, [labels], consoleMethods);
    renderDeclared([labels], { path: '/labels', store });
    await loadedTable('Label 01');
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    const menu = await screen.findByRole('presentation');
    fireEvent.click(within(menu).getByRole('switch', { name: 'Created' }));
    await waitFor(() => expect(puts).toEqual([{ listKey: 'labels', scope: 'user', hidden: [], order: null }]), {
      timeout: COLUMN_SAVE_DELAY_MS + 3000,
    });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(headers(screen.getByRole('table'))).toEqual(['Name', 'Colour', 'Active', 'Created']));
  });
});
