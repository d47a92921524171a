import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, S3 } from '../connections/connectionsApi';
import { NIGHTLY, RUN_NEW, runsApi } from '../job-runs/runsApi';
import { tablesApi } from '../tables/tablesApi';
import { rowOf } from '../../listPage';
import { renderWorkflows, WORKFLOWS_TIMEOUT_MS } from './render';
import { PAIR, PAIRS, tableRows, workflow, workflowConnections, workflows, workflowsApi } from './workflowsApi';

/**
 * How a copy writes is a choice the form never makes for the user; a merge picks its key columns
 * and an incremental copy its watermark among the source table's columns; and a run that would
 * append to a table already holding rows asks first.
 */

type User = ReturnType<typeof userEvent.setup>;

const LAKE_TABLES = [{ id: 'lake.orders', name: 'orders', kind: 'table' as const, group: 'lake', format: 'table' }];

function fakes({ lakeTables = LAKE_TABLES }: { lakeTables?: typeof LAKE_TABLES } = {}) {
  const runs = runsApi();
  const nightly = workflows()[0]!;
  const appending = workflow({
    ...nightly,
    tasks: [
      { id: 'task-1', name: 'Copy orders', type: 'copy', from: { table: 'sales.orders' }, to: { table: 'lake.orders', mode: 'append' } },
    ],
  });
  const api = workflowsApi([appending, ...workflows().slice(1)], runs);
  api.columns['sales.orders'] = [
    { name: 'id', dataType: 'integer' },
    { name: 'customer', dataType: 'character varying(40)' },
    { name: 'updated_at', dataType: 'timestamp with time zone' },
  ];
  const connections = connectionsApi(workflowConnections(), PAIRS);
  connections.endpoints[S3] = lakeTables;
  tablesApi(tableRows());
  return { api, runs };
}

/** The one workflow the form posted: the pair's, with `task` as its only task. */
async function expectSavedTask(api: { bodiesOf(pattern: RegExp): unknown[] }, task: Record<string, unknown>) {
  await waitFor(() => expect(api.bodiesOf(/^POST \/workflow$/)).toEqual([expect.objectContaining({ pairId: PAIR, tasks: [task] })]));
}

function helperOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}

const task = (position: number) => screen.getByRole('listitem', { name: `Task ${position}` });

/** Opens a combobox's list (a refused save may have focused it open already). */
async function open(user: User, scope: HTMLElement, combobox: string) {
  const input = within(scope).getByRole('combobox', { name: combobox });
  if (input.getAttribute('aria-expanded') !== 'true') await user.click(input);
}

async function choose(user: User, scope: HTMLElement, combobox: string, option: string | RegExp) {
  await open(user, scope, combobox);
  await user.click(await screen.findByRole('option', { name: option }));
}

async function optionsOf(user: User, scope: HTMLElement, combobox: string): Promise<string[]> {
  await open(user, scope, combobox);
  const options = (await screen.findAllByRole('option')).map((option) => option.textContent ?? '');
  await user.keyboard('{Escape}');
  return options;
}

const save = (user: User) => user.click(screen.getByRole('button', { name: 'Save' }));

describe('a copy task’s mode, keys and watermark', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  it('has no mode until one is chosen, and saving without one says so', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    renderWorkflows('/workflows/create');
    const general = await screen.findByRole('region', { name: 'Workflow' });
    await user.type(within(general).getByRole('textbox', { name: 'Name' }), 'Nightly copy');
    await choose(user, general, 'Source/destination pair', 'Warehouse to lake');
    await user.click(within(screen.getByRole('region', { name: 'Tasks' })).getByRole('button', { name: 'Add task' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    const copy = task(1);
    await user.type(within(copy).getByRole('textbox', { name: 'Name' }), 'Copy orders');
    await choose(user, copy, 'Source table', 'sales / orders');
    await choose(user, copy, 'Destination table', 'lake / orders');

    const mode = within(copy).getByRole('combobox', { name: 'Mode' });
    expect(mode).not.toHaveTextContent(/Append|Replace|Create|Merge/);
    expect(within(copy).queryByRole('combobox', { name: 'Key columns' })).toBeNull();
    await save(user);
    await waitFor(() =>
      expect(helperOf(within(copy).getByRole('combobox', { name: 'Mode' }))).toBe(
        'Choose how the copy writes: create, replace, append or merge',
      ),
    );
    expect(api.seen(/^POST \/workflow$/)).toEqual([]);
  });

  it('a merge picks its keys, and a copy its watermark, among the source table’s columns', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    renderWorkflows('/workflows/create');
    const general = await screen.findByRole('region', { name: 'Workflow' });
    await user.type(within(general).getByRole('textbox', { name: 'Name' }), 'Nightly merge');
    await choose(user, general, 'Source/destination pair', 'Warehouse to lake');
    await user.click(within(screen.getByRole('region', { name: 'Tasks' })).getByRole('button', { name: 'Add task' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    const copy = task(1);
    await user.type(within(copy).getByRole('textbox', { name: 'Name' }), 'Merge orders');
    await choose(user, copy, 'Source table', 'sales / orders');
    await choose(user, copy, 'Destination table', 'lake / orders');
    await choose(user, copy, 'Mode', 'Merge (update or add by key)');

    // A merge without keys is refused by the shared rule, on the key picker.
    await save(user);
    await waitFor(() =>
      expect(helperOf(within(copy).getByRole('combobox', { name: 'Key columns' }))).toBe(
        'A merge needs key columns: choose the source columns that identify a row',
      ),
    );
    expect(await optionsOf(user, copy, 'Key columns')).toEqual([
      'id (integer)',
      'customer (character varying(40))',
      'updated_at (timestamp with time zone)',
    ]);
    expect(api.seen(/^GET \/workflow\/connection\/columns/)).toContain(
      'GET /workflow/connection/columns/c0000000-0000-4000-8000-000000000001?table=sales.orders',
    );
    await choose(user, copy, 'Key columns', 'id (integer)');
    expect(await optionsOf(user, copy, 'Watermark column (incremental copy)')).toEqual(
      expect.arrayContaining(['id (integer)', 'customer (character varying(40))', 'updated_at (timestamp with time zone)']),
    );
    await choose(user, copy, 'Watermark column (incremental copy)', 'updated_at (timestamp with time zone)');
    await save(user);

    await expectSavedTask(api, {
      id: 'task-1',
      name: 'Merge orders',
      type: 'copy',
      from: { table: 'sales.orders' },
      to: { table: 'lake.orders', mode: 'merge', keys: ['id'] },
      watermark: 'updated_at',
    });
  });
});

describe('a copy into a table the destination does not hold yet', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  /** A new workflow with one copy task from sales.orders, in `mode`, on a destination that holds no tables. */
  async function copyToEmptyLake(user: User, name: string, mode: string) {
    const { api } = fakes({ lakeTables: [] });
    renderWorkflows('/workflows/create');
    const general = await screen.findByRole('region', { name: 'Workflow' });
    await user.type(within(general).getByRole('textbox', { name: 'Name' }), name);
    await choose(user, general, 'Source/destination pair', 'Warehouse to lake');
    await user.click(within(screen.getByRole('region', { name: 'Tasks' })).getByRole('button', { name: 'Add task' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Copy' }));
    const copy = task(1);
    await user.type(within(copy).getByRole('textbox', { name: 'Name' }), name);
    await choose(user, copy, 'Source table', 'sales / orders');
    await choose(user, copy, 'Mode', mode);
    return { api, copy };
  }

  it('a merge offers the source’s table as a new one, and picks its keys among the source’s columns', async () => {
    const user = userEvent.setup();
    const { api, copy } = await copyToEmptyLake(user, 'Merge orders', 'Merge (update or add by key)');
    expect(helperOf(within(copy).getByRole('combobox', { name: 'Mode' }))).toBe(
      'Updates the rows whose key the table holds and adds the others, making the table when it is missing: running it again adds nothing',
    );

    expect(await optionsOf(user, copy, 'Destination table')).toEqual(['sales.orders (new table)']);
    await choose(user, copy, 'Destination table', 'sales.orders (new table)');
    expect(within(copy).getByRole('combobox', { name: 'Destination table' })).toHaveValue('sales.orders (new table)');
    expect(await optionsOf(user, copy, 'Key columns')).toEqual([
      'id (integer)',
      'customer (character varying(40))',
      'updated_at (timestamp with time zone)',
    ]);
    await choose(user, copy, 'Key columns', 'id (integer)');
    await save(user);

    await expectSavedTask(api, {
      id: 'task-1',
      name: 'Merge orders',
      type: 'copy',
      from: { table: 'sales.orders' },
      to: { table: 'sales.orders', mode: 'merge', keys: ['id'] },
    });
  });

  it('an append offers the source’s table as a new one', async () => {
    const user = userEvent.setup();
    const { api, copy } = await copyToEmptyLake(user, 'Append orders', 'Append');
    expect(helperOf(within(copy).getByRole('combobox', { name: 'Mode' }))).toBe(
      'Adds the rows read, making the table when it is missing; a row copied twice is there twice',
    );

    expect(await optionsOf(user, copy, 'Destination table')).toEqual(['sales.orders (new table)']);
    await choose(user, copy, 'Destination table', 'sales.orders (new table)');
    await choose(user, copy, 'Watermark column (incremental copy)', 'updated_at (timestamp with time zone)');
    await save(user);

    await expectSavedTask(api, {
      id: 'task-1',
      name: 'Append orders',
      type: 'copy',
      from: { table: 'sales.orders' },
      to: { table: 'sales.orders', mode: 'append' },
      watermark: 'updated_at',
    });
  });

  it('a replace into a destination without the table offers the new one too: the first run makes it', async () => {
    const user = userEvent.setup();
    const { copy } = await copyToEmptyLake(user, 'Replace orders', 'Replace');
    await open(user, copy, 'Destination table');
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['sales.orders (new table)']);
  });
});

describe('running a workflow that appends', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  it('asks first when the destination already holds rows, and runs only once told to', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    api.destinationRows = [{ task: 'Copy orders', table: 'lake.orders', rows: 1234, more: false }];
    const view = renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');

    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The destination lake.orders already holds 1,234 rows; appending may repeat rows. Run anyway?');
    expect(api.seen(/^GET \/workflow\/destinationRows/)).toEqual([`GET /workflow/destinationRows/${NIGHTLY}`]);
    expect(api.seen(/^POST \/workflow\/run/)).toEqual([]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.seen(/^POST \/workflow\/run/)).toEqual([]);
    expect(view.location().pathname).toBe('/workflows');

    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Run anyway' }));
    await waitFor(() => expect(api.seen(/^POST \/workflow\/run/)).toEqual([`POST /workflow/run/${NIGHTLY}`]));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_NEW}/show`));
  });

  it('runs at once when the destination holds no rows', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    api.destinationRows = [{ task: 'Copy orders', table: 'lake.orders', rows: 0, more: false }];
    const view = renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders' }));
    await waitFor(() => expect(api.seen(/^POST \/workflow\/run/)).toEqual([`POST /workflow/run/${NIGHTLY}`]));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_NEW}/show`));
  });
});

describe('running a full copy', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  function incrementalFakes(mode: 'append' | 'merge') {
    const runs = runsApi();
    const nightly = workflows()[0]!;
    const incremental = workflow({
      ...nightly,
      tasks: [
        {
          id: 'task-1',
          name: 'Copy orders',
          type: 'copy',
          from: { table: 'sales.orders' },
          to: mode === 'merge' ? { table: 'lake.orders', mode, keys: ['id'] } : { table: 'lake.orders', mode },
          watermark: 'updated_at',
        },
      ],
    });
    const api = workflowsApi([incremental, ...workflows().slice(1)], runs);
    connectionsApi(workflowConnections(), PAIRS);
    tablesApi(tableRows());
    return api;
  }

  it('is offered for a workflow with an incremental copy, says what it reads, and runs with fullCopy', async () => {
    const user = userEvent.setup();
    const api = incrementalFakes('merge');
    const view = renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    // Workflows without an incremental copy have no such button.
    await within(rowOf('Hourly refresh')).findByRole('button', { name: 'Run Hourly refresh' });
    expect(within(rowOf('Hourly refresh')).queryByRole('button', { name: /with a full copy$/ })).toBeNull();
    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders with a full copy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Nightly orders with a full copy?' });
    expect(dialog).toHaveTextContent(
      'Its incremental copies (Copy orders) read every row of their sources once, not only the rows past their watermark; the watermarks move when the run succeeds.',
    );
    expect(dialog).not.toHaveTextContent('receive every row again');
    await user.click(within(dialog).getByRole('button', { name: 'Run a full copy' }));
    await waitFor(() => expect(api.bodiesOf(/^POST \/workflow\/run/)).toEqual([{ jobId: NIGHTLY, fullCopy: true }]));
    await waitFor(() => expect(view.location().pathname).toBe(`/job-runs/${RUN_NEW}/show`));
  });

  it('warns that an incremental append copy adds every row again, and runs nothing when cancelled', async () => {
    const user = userEvent.setup();
    const api = incrementalFakes('append');
    renderWorkflows('/workflows');
    await screen.findByText('Nightly orders');
    await user.click(await within(rowOf('Nightly orders')).findByRole('button', { name: 'Run Nightly orders with a full copy' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Copy orders append: their destinations receive every row again, next to the rows they hold.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.seen(/^POST \/workflow\/run/)).toEqual([]);
  });
});
