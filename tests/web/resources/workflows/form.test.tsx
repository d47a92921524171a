import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { connectionsApi, FINANCE, PG, S3, SLACK } from '../connections/connectionsApi';
import { NIGHTLY, runsApi } from '../job-runs/runsApi';
import { tablesApi } from '../tables/tablesApi';
import { renderWorkflows, WORKFLOWS_TIMEOUT_MS } from './render';
import { DBX, GIT, ORDERS, PAIR, PAIRS, tableRows, workflowConnections, workflowsApi } from './workflowsApi';

type User = ReturnType<typeof userEvent.setup>;

/** The tables the lake (the pair's destination) discovered. */
const LAKE_TABLES = [{ id: 'lake.orders', name: 'orders', kind: 'table' as const, group: 'lake', format: 'table' }];

function fakes() {
  const runs = runsApi();
  const api = workflowsApi(undefined, runs);
  const connections = connectionsApi(workflowConnections(), PAIRS);
  connections.endpoints[S3] = LAKE_TABLES;
  tablesApi(tableRows());
  return { api, connections };
}

function helperOf(input: HTMLElement): string {
  return input.closest('.MuiFormControl-root')?.querySelector('.MuiFormHelperText-root')?.textContent ?? '';
}

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

function task(position: number): HTMLElement {
  return screen.getByRole('listitem', { name: `Task ${position}` });
}

async function choose(user: User, scope: HTMLElement, combobox: string, option: string | RegExp) {
  await user.click(within(scope).getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function addTask(user: User, type: string) {
  await user.click(within(section('Tasks')).getByRole('button', { name: 'Add task' }));
  await user.click(await screen.findByRole('menuitem', { name: type }));
}

const save = (user: User) => user.click(screen.getByRole('button', { name: 'Save' }));

describe('the workflow form', { timeout: WORKFLOWS_TIMEOUT_MS }, () => {
  it('checks the shared rules before sending, then POST /workflow with a copy task, a daily schedule and failure mail', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    const view = renderWorkflows('/workflows/create');
    const general = await screen.findByRole('region', { name: 'Workflow' });

    // Saving is offered once something is typed: a blank name is then refused by the shared rule.
    await user.type(within(general).getByRole('textbox', { name: 'Description' }), 'Orders every night');
    await user.clear(within(general).getByRole('textbox', { name: 'Description' }));
    await save(user);
    await waitFor(() => expect(helperOf(within(general).getByRole('textbox', { name: 'Name' }))).toBe('is required'));
    expect(helperOf(within(general).getByRole('combobox', { name: 'Source/destination pair' }))).toBe('Required');
    expect(within(section('Tasks')).getByRole('alert')).toHaveTextContent('give at least one task');

    await user.type(within(general).getByRole('textbox', { name: 'Name' }), 'Nightly copy');
    await choose(user, general, 'Source/destination pair', 'Warehouse to lake');
    await choose(user, general, 'Workspace', 'Finance');
    await addTask(user, 'Copy');
    const copy = task(1);
    await user.type(within(copy).getByRole('textbox', { name: 'Name' }), 'Copy orders');
    await choose(user, copy, 'Source table', 'sales / orders');
    await choose(user, copy, 'Destination table', 'lake / orders');
    await choose(user, copy, 'Mode', 'Replace');
    await user.type(within(copy).getByRole('spinbutton', { name: 'Batch size' }), '500');
    await save(user);
    await waitFor(() => expect(helperOf(within(copy).getByRole('spinbutton', { name: 'Batch size' }))).toBe('must be at least 1000'));
    expect(api.seen(/^POST \/workflow$/)).toEqual([]);
    await user.clear(within(copy).getByRole('spinbutton', { name: 'Batch size' }));
    await user.type(within(copy).getByRole('spinbutton', { name: 'Batch size' }), '20000');

    const schedule = section('Schedule');
    await user.click(within(schedule).getByRole('radio', { name: 'On a schedule' }));
    await choose(user, schedule, 'Preset', 'Every day');
    await choose(user, schedule, 'At', '03:00');
    expect(within(schedule).getByRole('textbox', { name: 'Cron expression' })).toHaveValue('0 3 * * *');
    const zone = within(schedule).getByRole('combobox', { name: 'Time zone' });
    await user.clear(zone);
    await user.type(zone, 'Europe/Par');
    await user.click(await screen.findByRole('option', { name: 'Europe/Paris' }));

    await user.type(within(section('When a run fails')).getByRole('combobox', { name: 'Email addresses' }), 'ops@acme.test{Enter}');
    await save(user);

    await waitFor(() =>
      expect(api.bodiesOf(/^POST \/workflow$/)).toEqual([
        {
          name: 'Nightly copy',
          workspaceId: FINANCE,
          pairId: PAIR,
          tasks: [
            {
              id: 'task-1',
              name: 'Copy orders',
              type: 'copy',
              from: { table: 'sales.orders' },
              to: { table: 'lake.orders', mode: 'replace' },
              batchSize: 20000,
            },
          ],
          schedule: { cron: '0 3 * * *', timezone: 'Europe/Paris' },
          retries: { max: 0, backoffSeconds: 60 },
          timeoutMinutes: 60,
          concurrency: 1,
          notifyOnFailure: { inApp: true, emails: ['ops@acme.test'] },
        },
      ]),
    );
    await waitFor(() => expect(view.location().pathname).toBe('/workflows/f0000000-0000-4000-8000-0000000000a1/show'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Workflow "Nightly copy" created');
  });

  it('SQL from a file of the repository (branch, then file), quality checks of tables, a notification; a Databricks engine; reordered', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    api.failWith(/^POST \/workflow$/, 400, 'tasks.1.path: the repository has no file sql/experimental/cohorts.sql at dev', 1);
    const view = renderWorkflows('/workflows/create');
    const general = await screen.findByRole('region', { name: 'Workflow' });
    await user.type(within(general).getByRole('textbox', { name: 'Name' }), 'Marts');
    await choose(user, general, 'Source/destination pair', 'Warehouse to lake');

    // A SQL task needs the repository its files are read from.
    await addTask(user, 'SQL from the repository');
    expect(within(task(1)).getByText('Choose the repository connection above to pick a file.')).toBeInTheDocument();
    await user.type(within(task(1)).getByRole('textbox', { name: 'Name' }), 'Cohorts');
    await save(user);
    const repository = section('Repository');
    await waitFor(() =>
      expect(helperOf(within(repository).getByRole('combobox', { name: 'Repository connection' }))).toBe(
        'a SQL task needs the repository its files are read from',
      ),
    );
    await choose(user, repository, 'Repository connection', 'Analytics repo');

    // The default branch's .sql files, then another branch's.
    const sql = task(1);
    await user.click(await within(sql).findByRole('combobox', { name: 'SQL file' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['sql/refresh.sql', 'sql/orders/daily.sql']);
    await user.click(screen.getByRole('option', { name: 'sql/refresh.sql' }));
    await waitFor(() => expect(helperOf(within(sql).getByRole('combobox', { name: 'SQL file' }))).toBe('main is at commit a1b2c3d4e5f6'));
    await choose(user, sql, 'Branch', 'dev');
    await waitFor(() =>
      expect(api.seen(/gitRepo/)).toEqual([`GET /workflow/connection/gitRepo/${GIT}`, `GET /workflow/connection/gitRepo/${GIT}?ref=dev`]),
    );
    await waitFor(() => expect(helperOf(within(sql).getByRole('combobox', { name: 'SQL file' }))).toBe('dev is at commit ffee00001111'));
    await choose(user, sql, 'SQL file', 'sql/experimental/cohorts.sql');
    await choose(user, sql, 'Run on', 'The source');

    await addTask(user, 'Data-quality checks');
    await user.type(within(task(2)).getByRole('textbox', { name: 'Name' }), 'Check orders');
    await choose(user, task(2), 'Tables', 'orders (Warehouse)');
    await user.keyboard('{Escape}');

    await addTask(user, 'Notification');
    const notify = task(3);
    await user.type(within(notify).getByRole('textbox', { name: 'Name' }), 'Tell the team');
    await user.type(within(notify).getByRole('textbox', { name: 'Message' }), 'Marts are fresh');
    await choose(user, notify, 'Slack connection', 'Alerts');
    await user.type(within(notify).getByRole('combobox', { name: 'Email addresses' }), 'data@acme.test, not-an-address{Enter}');

    // The Databricks engine needs its connection; a job id is a number.
    const engine = section('Where it runs');
    await user.click(within(engine).getByRole('radio', { name: 'Databricks job' }));
    await user.type(within(engine).getByRole('textbox', { name: 'Databricks job id' }), 'job-7');
    await save(user);
    await waitFor(() =>
      expect(helperOf(within(engine).getByRole('combobox', { name: 'Databricks connection' }))).toBe(
        'choose the Databricks connection that runs it',
      ),
    );
    expect(helperOf(within(engine).getByRole('textbox', { name: 'Databricks job id' }))).toBe('must be the number of a Databricks job');
    expect(helperOf(within(notify).getByRole('combobox', { name: 'Email addresses' }))).toBe('must be email addresses');
    await choose(user, engine, 'Databricks connection', 'Spark');
    await user.clear(within(engine).getByRole('textbox', { name: 'Databricks job id' }));
    await user.type(within(engine).getByRole('textbox', { name: 'Databricks job id' }), '4242');
    await user.click(within(within(notify).getByRole('button', { name: 'not-an-address' })).getByTestId('CancelIcon'));

    // The notification goes first.
    await user.click(within(task(3)).getByRole('button', { name: 'Move task 3 up' }));
    await user.click(within(task(2)).getByRole('button', { name: 'Move task 2 up' }));
    expect(within(task(1)).getByRole('textbox', { name: 'Name' })).toHaveValue('Tell the team');
    expect(within(task(1)).getByRole('button', { name: 'Move task 1 up' })).toBeDisabled();

    await save(user);
    await waitFor(() => expect(api.bodiesOf(/^POST \/workflow$/)).toHaveLength(1));
    const expected = {
      name: 'Marts',
      pairId: PAIR,
      repositoryConnectionId: GIT,
      databricksConnectionId: DBX,
      databricksJobId: '4242',
      tasks: [
        {
          id: 'task-3',
          name: 'Tell the team',
          type: 'notify',
          message: 'Marts are fresh',
          slackConnectionId: SLACK,
          emails: ['data@acme.test'],
        },
        { id: 'task-1', name: 'Cohorts', type: 'sql', path: 'sql/experimental/cohorts.sql', ref: 'dev', target: 'source' },
        { id: 'task-2', name: 'Check orders', type: 'quality', tableIds: [ORDERS] },
      ],
      retries: { max: 0, backoffSeconds: 60 },
      timeoutMinutes: 60,
      concurrency: 1,
      notifyOnFailure: { inApp: true },
    };
    expect(api.bodiesOf(/^POST \/workflow$/)[0]).toEqual(expected);

    // The server's refusal names a task's field: it shows on that input (the task now second).
    await waitFor(() =>
      expect(helperOf(within(task(2)).getByRole('combobox', { name: 'SQL file' }))).toBe(
        'the repository has no file sql/experimental/cohorts.sql at dev',
      ),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('tasks.1.path: the repository has no file');
    expect(view.location().pathname).toBe('/workflows/create');
  });

  it('an edit starts from the stored workflow and sends PUT /workflow/{id} with only what changed', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    const view = renderWorkflows(`/workflows/${NIGHTLY}`);
    const general = await screen.findByRole('region', { name: 'Workflow' });
    await waitFor(() => expect(within(general).getByRole('textbox', { name: 'Name' })).toHaveValue('Nightly orders'));
    await waitFor(() => expect(within(task(1)).getByRole('combobox', { name: 'Source table' })).toHaveValue('sales / orders'), {
      timeout: 10_000,
    });
    expect(within(task(1)).getByRole('combobox', { name: 'Mode' })).toHaveTextContent('Replace');
    expect(within(task(2)).getByRole('button', { name: 'orders (Warehouse)' })).toBeInTheDocument();
    const schedule = section('Schedule');
    expect(within(schedule).getByRole('radio', { name: 'On a schedule' })).toBeChecked();
    expect(within(schedule).getByRole('combobox', { name: 'Preset' })).toHaveTextContent('Every day');
    expect(within(schedule).getByRole('combobox', { name: 'At' })).toHaveTextContent('02:00');

    await choose(user, schedule, 'Preset', 'Every week');
    await choose(user, schedule, 'On', 'Friday');
    await choose(user, schedule, 'At', '05:00');
    expect(within(schedule).getByRole('textbox', { name: 'Cron expression' })).toHaveValue('0 5 * * 5');
    await user.click(within(task(2)).getByRole('button', { name: 'Move task 2 up' }));
    await save(user);

    await waitFor(() =>
      expect(api.bodiesOf(new RegExp(`^PUT /workflow/${NIGHTLY}$`))).toEqual([
        {
          tasks: [
            { id: 'task-2', name: 'Check orders', type: 'quality', tableIds: [ORDERS] },
            {
              id: 'task-1',
              name: 'Copy orders',
              type: 'copy',
              from: { table: 'sales.orders' },
              to: { table: 'lake.orders', mode: 'replace' },
            },
          ],
          schedule: { cron: '0 5 * * 5', timezone: 'Europe/Paris' },
        },
      ]),
    );
    await waitFor(() => expect(view.location().pathname).toBe(`/workflows/${NIGHTLY}/show`));
    expect(await screen.findByRole('region', { name: 'Runs' })).toBeInTheDocument();
  });

  it('a cleared schedule is sent as null; a custom cron is checked by the shared rule', async () => {
    const user = userEvent.setup();
    const { api } = fakes();
    renderWorkflows(`/workflows/${NIGHTLY}`);
    const schedule = await screen.findByRole('region', { name: 'Schedule' });
    await waitFor(() => expect(within(schedule).getByRole('textbox', { name: 'Cron expression' })).toHaveValue('0 2 * * *'));
    await choose(user, schedule, 'Preset', 'Custom');
    const cron = within(schedule).getByRole('textbox', { name: 'Cron expression' });
    await user.clear(cron);
    await user.type(cron, '*/15 * *');
    await save(user);
    await waitFor(() => expect(helperOf(cron)).toBe('must be a cron expression of five fields, such as 0 2 * * *'));
    await user.click(within(schedule).getByRole('radio', { name: 'Only when asked' }));
    await save(user);
    await waitFor(() => expect(api.bodiesOf(new RegExp(`^PUT /workflow/${NIGHTLY}$`))).toEqual([{ schedule: null }]));
  });

  it("a copy task's tables come from what the pair's connections discovered; a table no longer listed stays shown", async () => {
    const user = userEvent.setup();
    const { connections } = fakes();
    // The warehouse lists no sales.orders any more; the lake cannot list at all.
    connections.endpoints[PG] = [{ id: 'public.customers', name: 'customers', kind: 'table', group: 'public', format: 'table' }];
    connections.endpoints[S3] = { status: 502, message: 'The bucket did not answer' };
    renderWorkflows(`/workflows/${NIGHTLY}`);
    const copy = await waitFor(() => task(1));
    const sourceInput = () => within(copy).getByRole('combobox', { name: 'Source table' });
    await waitFor(() => expect(sourceInput()).toHaveValue('sales.orders (no longer listed by the connection)'), { timeout: 10_000 });
    const source = sourceInput();
    // No typed names: the input offers the discovered tables only.
    await user.click(source);
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toContain('public / customers');
    await user.keyboard('{Escape}');
    expect(await within(copy).findByText('The connection could not list its tables: The bucket did not answer')).toBeInTheDocument();
    // A connection that cannot list leaves the saved table as it is.
    expect(within(copy).getByRole('combobox', { name: 'Destination table' })).toHaveValue('lake.orders');
    await waitFor(() => expect(document.querySelector('.alert-bar.alert-danger')).toHaveTextContent('The bucket did not answer'));

    await choose(user, copy, 'Source table', 'public / customers');
    expect(source).toHaveValue('public / customers');
  });

  it('a new copy task says to choose the pair first', async () => {
    const user = userEvent.setup();
    fakes();
    renderWorkflows('/workflows/create');
    await screen.findByRole('region', { name: 'Workflow' });
    await addTask(user, 'Copy');
    expect(helperOf(within(task(1)).getByRole('combobox', { name: 'Source table' }))).toBe(
      'Choose the source/destination pair first: its connections list the tables',
    );
    await choose(user, screen.getByRole('region', { name: 'Workflow' }), 'Source/destination pair', 'Warehouse to lake');
    await choose(user, task(1), 'Source table', 'sales / refunds');
    await choose(user, task(1), 'Mode', 'Create (fails if it exists)');
    // A "create" copy may make a new table named after the source's.
    await choose(user, task(1), 'Destination table', 'sales.refunds (new table)');
    expect(within(task(1)).getByRole('combobox', { name: 'Destination table' })).toHaveValue('sales.refunds (new table)');
  });
});
