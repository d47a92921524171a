import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { loadServerTexts, localiseServerText } from '../../providers/i18n/serverTexts';
import { rememberLocale } from '../../providers/i18n/userLocale';
import type { GitRepository } from '../../resources/workflows/types';
import { adminUser } from './framework/harness';
import { server } from './msw';
import { connectionsApi, FINANCE, PG } from './resources/connections/connectionsApi';
import { HOURLY, RUN_FAILED, qualityResults, runsApi } from './resources/job-runs/runsApi';
import { dataTable, dictionary, entry, rule, tablesApi } from './resources/tables/tablesApi';
import { renderTables, TABLES_TIMEOUT_MS } from './resources/tables/render';
import { renderUsers } from './resources/users/render';
import { ROLE_MEMBER, usersApi } from './resources/users/usersApi';
import { renderWorkflows } from './resources/workflows/render';
import { DBX, GIT, ORDERS, PAIRS, workflow, workflowConnections, workflowsApi } from './resources/workflows/workflowsApi';

/**
 * Choices that come from records (columns, connections, endpoints, roles, branches, files,
 * workspaces, tables, check names) are shown exactly as they are named: a name that reads like
 * one of the console's translation keys, or like a server sentence the console words in the
 * user's language, is still the record's name.
 */

const API = '/api/v1';

describe('choices named by records', { timeout: TABLES_TIMEOUT_MS }, () => {
  it('in French, a dictionary column named like a server sentence keeps its name in the rule dialog', async () => {
    const user = userEvent.setup();
    // What the console would make of the names if it worded them as server texts.
    await loadServerTexts('fr');
    expect(localiseServerText('no such table (text)', 'fr')).toBe('aucune table ne correspond (text)');

    const api = tablesApi();
    api.entries = [...dictionary(), entry(24, { name: 'no such table', dataType: 'text' })];
    api.rules = [
      rule({
        id: '6b0e3c52-51a4-4a39-9d55-000000000009',
        name: 'Odd column present',
        functionName: 'not_null',
        columnName: 'no such table',
      }),
    ];
    connectionsApi();
    rememberLocale(adminUser.id, 'fr');
    renderTables('/tables/t-1/show/quality');

    await user.click(await screen.findByRole('button', { name: 'Modifier Odd column present' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier Odd column present' });
    const column = within(dialog).getByRole('combobox', { name: 'Colonne' });
    await waitFor(() => expect(column).toHaveTextContent('no such table (text)'));
    await user.click(column);
    expect(await screen.findByRole('option', { name: 'no such table (text)' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('in French, the connection a table is registered from keeps its name', async () => {
    const user = userEvent.setup();
    await loadServerTexts('fr');
    expect(localiseServerText('no such table (PostgreSQL)', 'fr')).toBe('aucune table ne correspond (PostgreSQL)');
    tablesApi();
    const connections = connectionsApi();
    connections.rows.find((row) => row.id === PG)!.name = 'no such table';
    rememberLocale(adminUser.id, 'fr');
    renderTables('/tables/create');
    await user.click(await screen.findByRole('combobox', { name: 'Connexion' }));
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    expect(options).toContain('no such table (PostgreSQL)');
    expect(options).not.toContain('aucune table ne correspond (PostgreSQL)');
  });

  it('an endpoint named like a translation key is offered and chosen by its name', async () => {
    const user = userEvent.setup();
    tablesApi();
    const connections = connectionsApi();
    connections.endpoints[PG] = [{ id: 'ra.action.save', name: 'ra.action.save', kind: 'table', group: null, format: 'table' }];
    renderTables('/tables/create');
    await user.click(await screen.findByRole('combobox', { name: 'Connection' }));
    await user.click(await screen.findByRole('option', { name: 'Warehouse (PostgreSQL)' }));
    await user.click(await screen.findByRole('combobox', { name: 'Endpoint' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['ra.action.save']);
    await user.click(screen.getByRole('option', { name: 'ra.action.save' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Endpoint' })).toHaveValue('ra.action.save'));
  });

  it("a demo account's role named like a translation key is offered by its name", async () => {
    const user = userEvent.setup();
    usersApi();
    server.use(
      http.get(`${API}/roles/active`, () =>
        HttpResponse.json({ message: 'Roles', data: [{ id: ROLE_MEMBER, name: 'ra.action.save', isAdmin: false }] }),
      ),
    );
    renderUsers('/users');
    await user.click(await screen.findByRole('button', { name: 'Create demo account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create demo account' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Role' }));
    expect(await screen.findByRole('option', { name: 'ra.action.save' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Save' })).toBeNull();
  });

  it("a workflow's connections, workspace, branch, file and tables named like translation keys keep their names", async () => {
    const runs = runsApi();
    const edited = workflow({
      id: HOURLY,
      name: 'Hourly refresh',
      engine: 'databricks',
      databricksConnectionId: DBX,
      databricksJobId: '4242',
      repositoryConnectionId: GIT,
      workspaceId: FINANCE,
      workspaceName: 'ra.action.show',
      tasks: [
        { id: 'task-1', name: 'Refresh marts', type: 'sql', path: 'ra.action.refresh', ref: 'ra.action.edit', target: 'destination' },
        { id: 'task-2', name: 'Check orders', type: 'quality', tableIds: [ORDERS] },
      ],
    });
    workflowsApi([edited], runs);
    const renamed: Record<string, string> = { [GIT]: 'ra.action.save', [DBX]: 'ra.action.delete' };
    connectionsApi(
      workflowConnections().map((candidate) => ({ ...candidate, name: renamed[candidate.id] ?? candidate.name })),
      PAIRS,
    );
    tablesApi([dataTable({ id: ORDERS, name: 'ra.action.list', connectionName: null })]);
    const repository: GitRepository = {
      defaultBranch: 'ra.action.edit',
      branches: [{ name: 'ra.action.edit', commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678' }],
      ref: 'ra.action.edit',
      commit: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
      files: ['sql/refresh.sql'],
    };
    server.use(
      http.get(`${API}/workspaces/active`, () =>
        HttpResponse.json({ message: 'Active workspaces', data: [{ id: FINANCE, name: 'ra.action.show' }] }),
      ),
      http.get(`${API}/workflow/connection/gitRepo/:id`, () => HttpResponse.json({ message: '1 file', data: repository })),
    );
    renderWorkflows(`/workflows/${HOURLY}`);

    const general = await screen.findByRole('region', { name: 'Workflow' });
    await waitFor(() => expect(within(general).getByRole('combobox', { name: 'Workspace' })).toHaveTextContent('ra.action.show'));
    const repositorySection = screen.getByRole('region', { name: 'Repository' });
    await waitFor(() =>
      expect(within(repositorySection).getByRole('combobox', { name: 'Repository connection' })).toHaveTextContent('ra.action.save'),
    );
    const engine = screen.getByRole('region', { name: 'Where it runs' });
    expect(within(engine).getByRole('combobox', { name: 'Databricks connection' })).toHaveTextContent('ra.action.delete');
    const sql = screen.getByRole('listitem', { name: 'Task 1' });
    await waitFor(() => expect(within(sql).getByRole('combobox', { name: 'Branch' })).toHaveTextContent('ra.action.edit'));
    await waitFor(() => expect(within(sql).getByRole('combobox', { name: 'SQL file' })).toHaveValue('ra.action.refresh'));
    const quality = screen.getByRole('listitem', { name: 'Task 2' });
    expect(await within(quality).findByRole('button', { name: 'ra.action.list' })).toBeInTheDocument();
  });

  it("a run's data-quality filters offer check and column names as they are", async () => {
    const user = userEvent.setup();
    const tracker = runsApi();
    const [first] = qualityResults();
    tracker.results = [{ ...first!, ruleName: 'ra.action.delete', columnName: 'ra.action.save' }];
    workflowsApi(undefined, tracker);
    connectionsApi(workflowConnections(), PAIRS);
    renderWorkflows(`/job-runs/${RUN_FAILED}/show/quality`);
    const section = await screen.findByRole('region', { name: 'Data-quality results' });

    await user.click(within(section).getByRole('combobox', { name: 'Checks' }));
    await user.click(await screen.findByRole('option', { name: 'ra.action.delete' }));
    await user.keyboard('{Escape}');
    expect(within(section).getByRole('combobox', { name: 'Checks' })).toHaveTextContent('ra.action.delete');
    await user.click(within(section).getByRole('combobox', { name: 'Columns' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['ra.action.save']);
    await user.keyboard('{Escape}');
  });
});
