import { screen, waitFor, within } from '@testing-library/react';
import { onTestFinished } from 'vitest';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { server } from '../../msw';
import { connectionsApi } from '../connections/connectionsApi';
import { API, dataTable, entry, result, RUN, tables, tablesApi } from './tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './render';
import type { QualityRun } from '../../../../resources/tables/types';

/** Incremental and sampled checks in the console: the watermark column, "Full check", "since …", estimates and index advice. */

async function quality(): Promise<HTMLElement> {
  const section = await screen.findByRole('region', { name: 'Data-quality rules' });
  await within(section).findByRole('table', { name: 'Data-quality rules' });
  return section;
}

/** Table t-1 with a watermark column (or none: null), and created_at a timestamp of its dictionary. */
function incrementalApi(watermarkColumn: string | null | undefined) {
  const [orders, ...rest] = tables();
  const api = tablesApi([dataTable({ ...orders!, watermarkColumn }), ...rest]);
  api.entries = api.entries.map((column) =>
    column.name === 'created_at' ? entry(column.position, { dataType: 'timestamp with time zone' }) : column,
  );
  return api;
}

const INCREMENTAL_RUN: QualityRun = {
  ...RUN,
  results: [
    result({
      ruleId: '6b0e3c52-51a4-4a39-9d55-000000000001',
      ruleName: 'Email present',
      functionName: 'not_null',
      columnName: 'email',
      status: 'passed',
      observed: 0,
      rowsScanned: 100000,
      rowsFailed: 0,
      failedShare: 0,
      message: '0 of 100000 rows with id after 9900000: email is null',
      coveredColumn: 'id',
      coveredAfter: '9900000',
      coveredUpTo: '10000000',
      samplePercent: null,
      advice:
        'Finding the rows with id after the last check reads the whole table without an index on id: create index "orders_id_idx" on "sales"."orders" ("id")',
    }),
    result({
      ruleId: '6b0e3c52-51a4-4a39-9d55-000000000002',
      ruleName: 'Email shape',
      functionName: 'regex_match',
      columnName: 'email',
      status: 'passed',
      observed: 12,
      rowsScanned: 4812,
      rowsFailed: 12,
      failedShare: 0.0025,
      message: "12 of 4812 rows in a sample (10% of the table's pages; an estimate): email does not match @",
      coveredColumn: null,
      coveredAfter: null,
      coveredUpTo: null,
      samplePercent: 10,
      advice: null,
    }),
  ],
};

describe('incremental and sampled checks', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('chooses the watermark column among the timestamps and growing numbers, and clears it', async () => {
    const user = userEvent.setup();
    const api = incrementalApi(null);
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    expect(within(section).queryByRole('button', { name: 'Full check' })).toBeNull();
    const picker = within(section).getByRole('combobox', { name: 'Incremental checks by' });
    expect(section).toHaveTextContent('Every run reads every row. Choose a timestamp, or an id that only grows, to check only new rows');
    await user.click(picker);
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    // id is an integer, created_at a timestamp; the text columns cannot be watermarks.
    expect(options).toEqual(['None: every run reads every row', 'id', 'created_at']);
    await user.click(screen.getByRole('option', { name: 'created_at' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/table\/t-1$/)).toEqual([{ watermarkColumn: 'created_at' }]));
    expect(await within(section).findByRole('button', { name: 'Full check' })).toBeInTheDocument();
    expect(section).toHaveTextContent('Row rules read only the rows whose created_at is past their last result');

    await user.click(within(section).getByRole('combobox', { name: 'Incremental checks by' }));
    await user.click(await screen.findByRole('option', { name: 'None: every run reads every row' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/table\/t-1$/).at(-1)).toEqual({ watermarkColumn: null }));
    await waitFor(() => expect(within(section).queryByRole('button', { name: 'Full check' })).toBeNull());
  });

  it('runs a full check or an incremental one, and shows which rows each result covered, estimates and index advice', async () => {
    const user = userEvent.setup();
    incrementalApi('id');
    connectionsApi();
    const bodies: unknown[] = [];
    server.use(
      http.post(`${API}/table/t-1/configure`, async ({ request }) => {
        bodies.push(await request.json());
        // Each run its own id: the results card shows the new run in place of the last.
        return HttpResponse.json({
          message: 'Checks of "orders": 2 passed, 0 did not',
          data: { ...INCREMENTAL_RUN, id: `run-${bodies.length}` },
        });
      }),
    );
    // Chromium's scrollIntoView may answer a promise: the results card must not take it for its effect's cleanup.
    const scrollIntoView = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = () => Promise.resolve() as never;
    onTestFinished(() => {
      Element.prototype.scrollIntoView = scrollIntoView;
    });
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Full check' }));
    await within(section).findByRole('region', { name: 'Results of the run' });
    await user.click(within(section).getByRole('button', { name: 'Run checks now' }));
    await waitFor(() => expect(bodies).toEqual([{ full: true }, {}]));

    const results = within(section).getByRole('region', { name: 'Results of the run' });
    const email = results.querySelector('tr[data-result="6b0e3c52-51a4-4a39-9d55-000000000001"]') as HTMLElement;
    expect(within(email).getByText('Rows since id 9900000')).toBeInTheDocument();
    const advice = results.querySelector('[data-advice]') as HTMLElement;
    expect(advice).toHaveTextContent('Make this check faster');
    expect(advice).toHaveTextContent('create index "orders_id_idx" on "sales"."orders" ("id")');
    const shape = results.querySelector('tr[data-result="6b0e3c52-51a4-4a39-9d55-000000000002"]') as HTMLElement;
    expect(within(shape).getByText('Estimate: 10% sample, 4,812 rows')).toBeInTheDocument();
    expect(within(shape).queryByText(/Rows since/)).toBeNull();
  });

  it('shows a rule’s last result as covering new rows, and nothing of watermarks for a server without them', async () => {
    const api = incrementalApi(undefined);
    api.rules[0] = { ...api.rules[0]!, lastResult: { ...INCREMENTAL_RUN.results[0]!, runId: 'run-2' } };
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    const row = within(section).getByText('Email present').closest('tr')!;
    expect(within(row).getByText('Rows since id 9900000')).toBeInTheDocument();
    expect(within(section).queryByRole('combobox', { name: 'Incremental checks by' })).toBeNull();
    expect(within(section).queryByRole('button', { name: 'Full check' })).toBeNull();
  });

  it('asks for a sample only for kinds that judge rows one by one, and sends it as samplePercent', async () => {
    const user = userEvent.setup();
    const api = incrementalApi(null);
    connectionsApi();
    renderTables('/tables/t-1/show/quality');
    const section = await quality();
    await user.click(within(section).getByRole('button', { name: 'Add rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New data-quality rule' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Check' }));
    await user.click(await screen.findByRole('option', { name: 'Unique' }));
    expect(within(dialog).queryByRole('spinbutton', { name: 'Sample (% of the table)' })).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: 'Check' }));
    await user.click(await screen.findByRole('option', { name: 'Not null' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Column' }));
    await user.click(await screen.findByRole('option', { name: /^email/ }));
    await user.type(within(dialog).getByRole('spinbutton', { name: 'Sample (% of the table)' }), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/table\/dataQuality\/t-1$/)).toEqual([
        expect.objectContaining({ functionName: 'not_null', columnName: 'email', samplePercent: 10 }),
      ]),
    );
  });
});
