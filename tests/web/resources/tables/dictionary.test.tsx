import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { catchDownloads } from '../audits/download';
import { connectionsApi } from '../connections/connectionsApi';
import { uploadForm } from '../../../../resources/tables/api';
import { DICTIONARY_CSV, tablesApi } from './tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './render';

async function dictionary(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Data dictionary' });
  await within(section).findByRole('table');
  return section;
}

function columnsShown(section: HTMLElement): string[] {
  return [...section.querySelectorAll('tr[data-column]')].map((row) => row.getAttribute('data-column')!);
}

function rowOf(section: HTMLElement, name: string): HTMLElement {
  return section.querySelector(`tr[data-column="${name}"]`) as HTMLElement;
}

describe("a table's dictionary", { timeout: TABLES_TIMEOUT_MS }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('pages by 10 and searches through the search route', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    await waitFor(() => expect(columnsShown(section)).toHaveLength(10));
    expect(columnsShown(section)[0]).toBe('id');
    expect(within(section).getByText('1–10 of 23')).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(columnsShown(section)[0]).toBe('shipped_at'));
    await user.click(within(section).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(columnsShown(section)).toEqual(['score', 'source', 'legacy_code']));
    expect(within(section).getByRole('button', { name: 'Go to next page' })).toBeDisabled();
    // A column the source no longer has: greyed, with a note.
    expect(rowOf(section, 'legacy_code')).toHaveAttribute('data-present', 'false');
    expect(rowOf(section, 'legacy_code')).toHaveTextContent('No longer in the source');
    expect(api.seen(/dataDictionary/)).toEqual([
      'GET /tables/dataDictionary/tableId/t-1/0/10',
      'GET /tables/dataDictionary/tableId/t-1/10/10',
      'GET /tables/dataDictionary/tableId/t-1/20/10',
    ]);

    await user.type(within(section).getByRole('textbox', { name: 'Search columns' }), 'mail');
    await waitFor(() => expect(columnsShown(section)).toEqual(['email']));
    expect(api.seen(/dataDictionary\/search/)).toEqual(['GET /tables/dataDictionary/search/tableId/t-1/0/10?searchText=mail']);
  });

  it('an inline edit sends PUT /table/{id} with the column and exactly the fields changed, and says it is saved', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    const email = rowOf(section, 'email');
    const save = within(email).getByRole('button', { name: 'Save email' });
    expect(save).toBeDisabled();
    expect(within(email).getByRole('textbox', { name: 'Description of email' })).toHaveValue('The email');
    await user.clear(within(email).getByRole('textbox', { name: 'Description of email' }));
    await user.type(within(email).getByRole('textbox', { name: 'Description of email' }), 'Contact address');
    await user.click(within(email).getByRole('combobox', { name: 'Sensitivity of email' }));
    await user.click(await screen.findByRole('option', { name: 'Personal data (masked)' }));
    // Typed and set back: not a change.
    await user.type(within(email).getByRole('textbox', { name: 'Owner of email' }), 'x');
    await user.clear(within(email).getByRole('textbox', { name: 'Owner of email' }));
    await user.click(save);

    await waitFor(() =>
      expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toEqual([
        { columns: [{ name: 'email', description: 'Contact address', sensitivity: 'pii' }] },
      ]),
    );
    expect(await within(rowOf(section, 'email')).findByText('Saved')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Table "orders" saved');
    await waitFor(() =>
      expect(within(rowOf(section, 'email')).getByRole('textbox', { name: 'Description of email' })).toHaveValue('Contact address'),
    );
  });

  it('a row that cannot be saved says so and keeps what was typed', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    api.failWith(/^PUT \/table\/t-1$/, 400, 'columns.0.owner: must be at most 200 characters');
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    const id = rowOf(section, 'id');
    await user.type(within(id).getByRole('textbox', { name: 'Owner of id' }), 'someone');
    await user.click(within(id).getByRole('button', { name: 'Save id' }));
    expect(await within(rowOf(section, 'id')).findByText('Not saved: columns.0.owner: must be at most 200 characters')).toBeInTheDocument();
    expect(within(rowOf(section, 'id')).getByRole('textbox', { name: 'Owner of id' })).toHaveValue('someone');
    expect(await screen.findByRole('alert')).toHaveTextContent('columns.0.owner: must be at most 200 characters');
  });

  it('an entry the shared rules refuse is not sent', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    const owner = within(rowOf(section, 'country')).getByRole('textbox', { name: 'Owner of country' });
    await user.click(owner);
    await user.paste('x'.repeat(201));
    await user.click(within(rowOf(section, 'country')).getByRole('button', { name: 'Save country' }));
    expect(await within(rowOf(section, 'country')).findByText('Not saved: owner: must be at most 200 characters')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual([]);
  });

  it('downloads the dictionary with the token header, as a file', async () => {
    const user = userEvent.setup();
    const downloads = catchDownloads();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    await user.click(within(section).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(downloads).toEqual([{ name: 'orders-dictionary.csv', text: DICTIONARY_CSV }]));
    const [call] = api.calls.filter((candidate) => candidate.path === '/table/dictionary/t-1');
    expect(call.method).toBe('GET');
    expect(call.headers['x-access-token']).toBe('token-admin');
  });

  it('uploads a CSV as one multipart file: the counts, then the entries reloaded', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    const csv = 'column,description\r\nemail,Contact address\r\n';
    await user.upload(within(section).getByLabelText('Dictionary CSV file'), new File([csv], 'described.csv', { type: 'text/csv' }));
    expect(await within(section).findByText('2 columns updated, 21 unchanged')).toBeInTheDocument();
    expect(api.uploads).toEqual([{ file: 'file' }]);
    expect(api.calls.find((call) => call.path === '/tables/dictionary/upload/t-1')?.headers['content-type']).toMatch(
      /^multipart\/form-data; boundary=/,
    );
    await waitFor(() => expect(api.seen(/^GET \/tables\/dataDictionary\/tableId\/t-1\/0\/10/)).toHaveLength(2));
  });

  it('the upload body is one file part named file, holding the chosen file', async () => {
    const file = new File(['column\r\nemail\r\n'], 'described.csv', { type: 'text/csv' });
    const form = uploadForm(file);
    expect([...form.keys()]).toEqual(['file']);
    const part = form.get('file') as File;
    expect(part.name).toBe('described.csv');
    expect(await part.text()).toBe('column\r\nemail\r\n');
  });

  it("a refused upload lists the server's problems line by line", async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    const message =
      'line 7: column "emial" is not a column of this table; line 9: sensitivity must be one of public, internal, confidential, pii';
    api.uploadAnswer = { status: 400, body: { message } };
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    await user.upload(
      within(section).getByLabelText('Dictionary CSV file'),
      new File(['column\r\nemial\r\n'], 'bad.csv', { type: 'text/csv' }),
    );
    const problems = await within(section).findByRole('list', { name: 'Problems of the file' });
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'line 7: column "emial" is not a column of this table',
      'line 9: sensitivity must be one of public, internal, confidential, pii',
    ]);
    expect(within(section).getByText('Nothing was changed: the file has these problems')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });

  it('reads the columns again and tells what was added, removed and changed', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    await user.click(within(section).getByRole('button', { name: 'Refresh columns' }));
    expect(await within(section).findByText('Added: score')).toBeInTheDocument();
    expect(within(section).getByText('No longer in the source: legacy_code')).toBeInTheDocument();
    expect(within(section).getByText('Type changed: amount')).toBeInTheDocument();
    expect(api.seen(/configure/)).toEqual(['POST /table/configure/t-1']);
  });
});
