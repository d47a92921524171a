import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { suggestRuleName } from '../../../../common/quality-names';
import { catchDownloads } from '../audits/download';
import { connectionsApi } from '../connections/connectionsApi';
import { KEPT_ROWS, RUN, tablesApi } from './tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './render';

type User = ReturnType<typeof userEvent.setup>;

const EMAIL_RULE = RUN.results[0].ruleId;

async function quality(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Data-quality rules' });
  await within(section).findByRole('table', { name: 'Data-quality rules' });
  return section;
}

async function dictionary(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Data dictionary' });
  await within(section).findByRole('table', { name: 'Data dictionary' });
  return section;
}

const rowOf = (section: HTMLElement, column: string) => section.querySelector(`tr[data-column="${column}"]`) as HTMLElement;

const idsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.firstChild?.textContent);

async function choose(user: User, scope: HTMLElement, combobox: string, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the failing rows a run kept', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('pages past 20 rows and downloads them all as CSV', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    api.failingRows[`${RUN.id}/${EMAIL_RULE}`] = KEPT_ROWS;
    connectionsApi();
    const downloads = catchDownloads();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Run checks now' }));
    const results = await within(section).findByRole('region', { name: 'Results of the run' });

    const rows = await within(results).findByText('Failing rows (45)');
    const kept = rows.closest('[data-failing-rows]') as HTMLElement;
    const table = within(kept).getByRole('table', { name: 'Failing rows of Email present' });
    await waitFor(() => expect(idsOf(table)).toEqual(KEPT_ROWS.slice(0, 20).map((row) => String(row.id))));
    expect(within(kept).getByText('Rows 1–20 of 45')).toBeInTheDocument();
    await user.click(within(kept).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(idsOf(table)).toEqual(KEPT_ROWS.slice(20, 40).map((row) => String(row.id))));
    await user.click(within(kept).getByRole('button', { name: 'Go to next page' }));
    await waitFor(() => expect(idsOf(table)).toEqual(KEPT_ROWS.slice(40).map((row) => String(row.id))));
    expect(api.seen(/failingRows/)).toEqual([
      `GET /table/quality/run/run-2/failingRows/${EMAIL_RULE}/0/20`,
      `GET /table/quality/run/run-2/failingRows/${EMAIL_RULE}/20/20`,
      `GET /table/quality/run/run-2/failingRows/${EMAIL_RULE}/40/20`,
    ]);

    await user.click(within(kept).getByRole('button', { name: 'Download the failing rows of Email present as CSV' }));
    await waitFor(() => expect(downloads.map((file) => file.name)).toEqual(['Email_present-failing-rows.csv']));
    expect(downloads[0].text.split('\r\n')).toHaveLength(46);
    expect(await screen.findByRole('alert')).toHaveTextContent('Failing rows downloaded');
  });

  it('lists the past runs and opens one after a reload, with its kept rows', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    api.failingRows[`${RUN.id}/${EMAIL_RULE}`] = KEPT_ROWS;
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    const history = await within(section).findByRole('region', { name: 'Past runs' });
    const run = history.querySelector('tr[data-run="run-2"]') as HTMLElement;
    expect(await within(run).findByText('Failed')).toBeInTheDocument();
    expect(run).toHaveTextContent('Run checks now');
    expect(within(section).queryByRole('region', { name: 'Results of the run' })).toBeNull();

    await user.click(within(run).getByRole('button', { name: /Show the results of the run of/ }));
    const results = await within(section).findByRole('region', { name: 'Results of the run' });
    expect(await within(results).findByText('Failing rows (45)')).toBeInTheDocument();
    expect(api.seen(/\/table\/quality\/run\/run-2$/)).toEqual(['GET /table/quality/run/run-2']);
  });

  it('shows the sample the result carries when the server keeps no rows apart (404)', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    api.failWith(/failingRows|quality\/runs/, 404, 'Not Found');
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Run checks now' }));
    const results = await within(section).findByRole('region', { name: 'Results of the run' });
    const table = within(results).getByRole('table', { name: 'Failing rows of Email present' });
    expect(idsOf(table)).toEqual(['17', '42']);
    expect(within(results).queryByRole('button', { name: /Download the failing rows/ })).toBeNull();
    await waitFor(() => expect(api.seen(/quality\/runs/).length).toBeGreaterThan(0));
    expect(within(section).queryByRole('region', { name: 'Past runs' })).toBeNull();
  });

  it("answers a run's error as an error alert", async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    api.failWith(/^POST \/table\/t-1\/configure$/, 400, 'The connection "Warehouse" is deactivated; activate it first');
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Run checks now' }));
    await waitFor(() =>
      expect(document.querySelector('.alert-bar.alert-danger')).toHaveTextContent(
        'The connection "Warehouse" is deactivated; activate it first',
      ),
    );
  });
});

describe('suggested rule names', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('names a rule by its check and column', () => {
    expect(suggestRuleName({ functionName: 'not_null', columnName: 'amount' })).toBe('amount not null');
    expect(suggestRuleName({ functionName: 'regex_match', columnName: 'email', params: { pattern: '@' } })).toBe('email matches pattern');
    expect(suggestRuleName({ functionName: 'value_between', columnName: 'amount', params: { min: 0, max: 100 } })).toBe(
      'amount between 0 and 100',
    );
    expect(suggestRuleName({ functionName: 'in_set', columnName: 'country', params: { values: ['GB', 'US'] } })).toBe(
      'country one of GB, US',
    );
    expect(suggestRuleName({ functionName: 'freshness', columnName: 'paid_at', params: { maxAgeMinutes: 120 } })).toBe(
      'paid_at at most 2 hours old',
    );
    expect(suggestRuleName({ functionName: 'row_count_between', params: { min: 1 } })).toBe('row count at least 1');
    expect(suggestRuleName({ functionName: 'not_null', columnName: null })).toBe('');
  });

  it('fills the name in the dialog until the user types one of their own', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Add rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New data-quality rule' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('');
    await choose(user, dialog, 'Column', 'amount (text)');
    await waitFor(() => expect(name).toHaveValue('amount not null'));
    await choose(user, dialog, 'Check', 'Matches a pattern');
    await choose(user, dialog, 'Column', 'email (text)');
    await waitFor(() => expect(name).toHaveValue('email matches pattern'));

    await user.clear(name);
    await user.type(name, 'Emails look right');
    await choose(user, dialog, 'Column', 'full_name (text)');
    expect(name).toHaveValue('Emails look right');
    await user.type(within(dialog).getByRole('textbox', { name: 'Pattern' }), '@');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toEqual([
        expect.objectContaining({ name: 'Emails look right', functionName: 'regex_match', columnName: 'full_name' }),
      ]),
    );
  });
});

describe('the data dictionary\'s "Save all"', { timeout: TABLES_TIMEOUT_MS }, () => {
  // Three rows typed into: longer than the area's usual test.
  it('saves every edited row, one call each, and keeps the edits of the rows that failed', { timeout: 3 * TABLES_TIMEOUT_MS }, async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    api.failWith(/^PUT \/table\/t-1$/, 400, 'columns.0.owner: must be at most 200 characters', 1);
    renderTables('/tables/t-1/show/dictionary');
    const section = await dictionary();
    const saveAll = within(section).getByRole('button', { name: 'Save all (0)' });
    expect(saveAll).toBeDisabled();

    await user.type(within(rowOf(section, 'id')).getByRole('textbox', { name: 'Owner of id' }), 'someone');
    await user.type(within(rowOf(section, 'email')).getByRole('textbox', { name: 'Business name of email' }), 'Contact');
    await user.type(within(rowOf(section, 'country')).getByRole('textbox', { name: 'Owner of country' }), 'geo-team');
    await user.click(within(section).getByRole('button', { name: 'Save all (3)' }));

    await waitFor(() => expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toHaveLength(3));
    expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toEqual([
      { columns: [{ name: 'id', owner: 'someone' }] },
      { columns: [{ name: 'email', businessName: 'Contact' }] },
      { columns: [{ name: 'country', owner: 'geo-team' }] },
    ]);
    await waitFor(() =>
      expect(document.querySelector('.alert-bar.alert-danger')).toHaveTextContent(
        '1 of 3 edited rows could not be saved: id. Their edits are kept.',
      ),
    );
    expect(await within(rowOf(section, 'id')).findByText('Not saved: columns.0.owner: must be at most 200 characters')).toBeInTheDocument();
    expect(within(rowOf(section, 'id')).getByRole('textbox', { name: 'Owner of id' })).toHaveValue('someone');
    expect(within(rowOf(section, 'email')).getByText('Saved')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Save all (1)' })).toBeEnabled();

    await user.click(within(section).getByRole('button', { name: 'Save all (1)' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toHaveLength(4));
    expect(await screen.findByText('The edited row was saved')).toBeInTheDocument();
    await waitFor(() => expect(within(section).getByRole('button', { name: 'Save all (0)' })).toBeDisabled());
  });
});
