import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { connectionsApi } from '../connections/connectionsApi';
import { API, RUN, tablesApi } from './tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './render';

type User = ReturnType<typeof userEvent.setup>;

async function quality(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Data-quality rules' });
  await within(section).findByRole('table', { name: 'Data-quality rules' });
  return section;
}

function ruleRow(section: HTMLElement, name: string): HTMLElement {
  return within(section).getByText(name).closest('tr')!;
}

async function choose(user: User, scope: HTMLElement, combobox: string, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

function helperOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}

async function openNewRule(user: User, section: HTMLElement, name: string, kind: string): Promise<HTMLElement> {
  await user.click(within(section).getByRole('button', { name: 'Add rule' }));
  const dialog = await screen.findByRole('dialog', { name: 'New data-quality rule' });
  await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), name);
  await choose(user, dialog, 'Check', kind);
  return dialog;
}

describe("a table's data-quality rules", { timeout: TABLES_TIMEOUT_MS }, () => {
  it('lists the rules with their last results, searched and filtered by kind', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    expect(api.seen(/dataQuality/)).toEqual(['GET /table/dataQuality/t-1/0/10']);
    const email = ruleRow(section, 'Email present');
    expect(within(email).getByText('Failed')).toBeInTheDocument();
    expect(email).toHaveTextContent('Observed: 3 · 3 / 1,000 (0.3%)');
    expect(email).toHaveTextContent('Not null');
    expect(ruleRow(section, 'Amount range')).toHaveTextContent('Not checked yet');

    await user.type(within(section).getByRole('textbox', { name: 'Search rules' }), 'amount');
    await waitFor(() =>
      expect(api.seen(/dataQuality\/search/)).toEqual(['GET /tables/dataQuality/search/tableId/t-1/0/10?searchText=amount']),
    );
    await waitFor(() => expect(within(section).queryByText('Email present')).toBeNull());

    await choose(user, section, 'Applies to', 'Table');
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/tables\/dataQuality\/filter\/tableId\/t-1\/0\/10$/)).toEqual([
        { functionType: 'table', searchText: 'amount' },
      ]),
    );
    expect(await within(section).findByText('No rules.')).toBeInTheDocument();
    await user.clear(within(section).getByRole('textbox', { name: 'Search rules' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/tables\/dataQuality\/filter/).at(-1)).toEqual({ functionType: 'table' }));
    expect(await within(section).findByText('Enough rows')).toBeInTheDocument();
  });

  it('value between: the shared rules checked in the dialog, then POST /table/dataQuality/{id} with the body', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    const dialog = await openNewRule(user, section, 'Amount positive', 'Value between');

    // A column kind needs a column, and bounds.
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('combobox', { name: 'Column' }))).toBe('is required for value_between'));
    await choose(user, dialog, 'Column', 'amount (text)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('textbox', { name: 'Min' }))).toBe('give a min, a max or both'));
    await user.type(within(dialog).getByRole('textbox', { name: 'Min' }), '10');
    await user.type(within(dialog).getByRole('textbox', { name: 'Max' }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('textbox', { name: 'Min' }))).toBe('must not be above max'));
    expect(api.seen(/^POST \/table\/dataQuality/)).toEqual([]);

    await user.clear(within(dialog).getByRole('textbox', { name: 'Min' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Min' }), '0');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Max' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Max' }), '500');
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Tolerance (%)' }), '200');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('spinbutton', { name: 'Tolerance (%)' }))).toBe('must be from 0 to 100%'));
    await user.clear(within(dialog).getByRole('spinbutton', { name: 'Tolerance (%)' }));
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Tolerance (%)' }), '2');
    await choose(user, dialog, 'Severity', 'Warn');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toEqual([
        {
          name: 'Amount positive',
          functionName: 'value_between',
          columnName: 'amount',
          params: { min: 0, max: 500 },
          severity: 'warn',
          tolerance: 0.02,
          isActive: true,
        },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await within(section).findByText('Amount positive')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('Rule "Amount positive" created');
  });

  it('a pattern, a set of values as chips, a maximum age in days: each checked and sent in its params', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();

    let dialog = await openNewRule(user, section, 'SKU digits', 'Matches a pattern');
    await choose(user, dialog, 'Column', 'sku (text)');
    await user.type(within(dialog).getByRole('textbox', { name: 'Pattern' }), '^\\d+$');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(helperOf(within(dialog).getByRole('textbox', { name: 'Pattern' }))).toMatch(/^not a valid regular expression: .*not POSIX/),
    );
    await user.clear(within(dialog).getByRole('textbox', { name: 'Pattern' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Pattern' }), '^[[0-9]+$');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toHaveLength(1));
    expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)[0]).toEqual({
      name: 'SKU digits',
      functionName: 'regex_match',
      columnName: 'sku',
      params: { pattern: '^[0-9]+$' },
      severity: 'fail',
      tolerance: 0,
      isActive: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    dialog = await openNewRule(user, section, 'Known currency', 'One of a set');
    await choose(user, dialog, 'Column', 'currency (text)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(dialog).getByText('give at least one value')).toBeInTheDocument());
    await user.type(within(dialog).getByRole('combobox', { name: 'Values' }), 'EUR{Enter}USD{Enter}');
    expect(
      within(dialog)
        .getAllByRole('button', { name: /^(EUR|USD)$/ })
        .map((chip) => chip.textContent),
    ).toEqual(['EUR', 'USD']);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toHaveLength(2));
    expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)[1]).toMatchObject({
      functionName: 'in_set',
      columnName: 'currency',
      params: { values: ['EUR', 'USD'] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    dialog = await openNewRule(user, section, 'Fresh orders', 'Freshness');
    await choose(user, dialog, 'Column', 'created_at (text)');
    // Freshness judges the table as a whole: no tolerance.
    expect(within(dialog).queryByRole('spinbutton', { name: 'Tolerance (%)' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(helperOf(within(dialog).getByRole('spinbutton', { name: 'Maximum age' }))).toBe('must be a number of minutes'),
    );
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Maximum age' }), '2');
    await choose(user, dialog, 'Unit', 'days');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toHaveLength(3));
    expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)[2]).toEqual({
      name: 'Fresh orders',
      functionName: 'freshness',
      columnName: 'created_at',
      params: { maxAgeMinutes: 2880 },
      severity: 'fail',
      tolerance: 0,
      isActive: true,
    });
  });

  it('custom SQL: no column, one read-only statement in a monospace area', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    const dialog = await openNewRule(user, section, 'No negative totals', 'Custom SQL');
    expect(within(dialog).queryByRole('combobox', { name: 'Column' })).toBeNull();
    const sql = within(dialog).getByRole('textbox', { name: 'SQL' });
    expect(sql.tagName).toBe('TEXTAREA');
    await user.type(sql, 'delete from orders');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(helperOf(sql)).toBe('must be one SELECT or WITH statement'));
    await user.clear(sql);
    await user.type(sql, 'select * from sales.orders where amount < 0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toEqual([
        {
          name: 'No negative totals',
          functionName: 'custom_sql',
          params: { sql: 'select * from sales.orders where amount < 0' },
          severity: 'fail',
          tolerance: 0,
          isActive: true,
        },
      ]),
    );
  });

  it('edits a rule (its id in the body); a server refusal naming a field shows on it', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    api.failWith(/^POST \/table\/dataQuality\/t-1$/, 400, 'columnName: "amount" is not a column of this table', 1);
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(ruleRow(section, 'Amount range')).getByRole('button', { name: 'Edit Amount range' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Amount range' });
    expect(within(dialog).getByRole('textbox', { name: 'Max' })).toHaveValue('10000');
    expect(within(dialog).getByRole('spinbutton', { name: 'Tolerance (%)' })).toHaveValue(5);
    expect(within(dialog).getByRole('combobox', { name: 'Severity' })).toHaveTextContent('Warn');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Max' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Max' }), '20000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(helperOf(within(dialog).getByRole('combobox', { name: 'Column' }))).toBe('"amount" is not a column of this table'),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toHaveLength(2));
    expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)[1]).toEqual({
      id: '6b0e3c52-51a4-4a39-9d55-000000000002',
      name: 'Amount range',
      functionName: 'value_between',
      columnName: 'amount',
      params: { min: 0, max: 20000 },
      severity: 'warn',
      tolerance: 0.05,
      isActive: true,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes a rule after a confirmation: DELETE /table/dataQuality/{ruleId}', async () => {
    const user = userEvent.setup();
    const api = tablesApi();
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(ruleRow(section, 'Enough rows')).getByRole('button', { name: 'Delete Enough rows' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the rule Enough rows?' });
    expect(api.seen(/^DELETE/)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.seen(/^DELETE/)).toEqual(['DELETE /table/dataQuality/6b0e3c52-51a4-4a39-9d55-000000000003']));
    await waitFor(() => expect(within(section).queryByText('Enough rows')).toBeNull());
    expect(await screen.findByRole('alert')).toHaveTextContent('Rule "Enough rows" deleted');
  });

  it('runs the checks now: the button busy meanwhile, then each result with its SQL and its failing rows as the server sent them', async () => {
    const user = userEvent.setup();
    tablesApi();
    connectionsApi();
    let release: () => void = () => undefined;
    const runs: unknown[] = [];
    server.use(
      http.post(`${API}/table/t-1/configure`, async ({ request }) => {
        runs.push(await request.json());
        await new Promise<void>((resolve) => (release = resolve));
        return HttpResponse.json({ message: 'Checks ran: 1 failed', data: RUN });
      }),
    );
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Run checks now' }));
    const busy = await within(section).findByRole('button', { name: 'Running checks…' });
    expect(busy).toBeDisabled();
    expect(busy).toHaveAttribute('aria-busy', 'true');
    release();

    const results = await within(section).findByRole('region', { name: 'Results of the run' });
    expect(runs).toEqual([{}]);
    expect(within(section).getByRole('button', { name: 'Run checks now' })).toBeEnabled();
    const email = results.querySelector('tr[data-result="6b0e3c52-51a4-4a39-9d55-000000000001"]') as HTMLElement;
    expect(within(email).getByText('Failed')).toBeInTheDocument();
    expect(email).toHaveTextContent('2 / 1,000 (0.2%)');
    const rows = results.querySelector('tr[data-result="6b0e3c52-51a4-4a39-9d55-000000000003"]') as HTMLElement;
    expect(within(rows).getByText('Passed')).toBeInTheDocument();
    expect(rows).toHaveTextContent('1000');

    const sample = within(results).getByRole('table', { name: 'Failing rows of Email present' });
    expect(
      within(sample)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['idemailfull_name', '17∅***', '42∅***']);

    expect(within(results).queryByText(/sum\(case when "email" is null/)).toBeNull();
    const [showSql] = within(results).getAllByRole('button', { name: 'Show SQL' });
    await user.click(showSql);
    expect(within(results).getByText(/sum\(case when "email" is null then 1 else 0 end\)/)).toBeInTheDocument();
    expect(within(results).getByRole('button', { name: 'Hide SQL' })).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('alert')).toHaveTextContent('Checks ran: 1 failed');
  });
});
