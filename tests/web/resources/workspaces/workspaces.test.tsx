import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { workspaces, type Workspace } from '../../../../resources/workspaces';
import { API, FRAMEWORK_TIMEOUT_MS, mockPolicies, plainUser, renderDeclared, signIn } from '../../framework/harness';
import { server } from '../../msw';
import { listToolbarShown } from '../../listPage';

interface Call {
  method: string;
  path: string;
  contentType: string | null;
  /** A form body as its fields (every value text), a JSON body as it is. */
  body?: unknown;
}

const ID = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

function workspace(n: number, overrides: Partial<Workspace> = {}): Workspace {
  return {
    id: ID(n),
    name: `Workspace ${n}`,
    description: `About ${n}`,
    isActive: true,
    memberCount: n,
    createdAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    updatedAt: new Date(Date.UTC(2026, 0, n)).toISOString(),
    createdBy: 'u-ada',
    createdByName: 'Ada Admin',
    ...overrides,
  };
}

/** `PUT /workspace`, `POST /workspaces`, `PUT /workspace/{id}` and `GET /workspaces` over a table. */
function workspacesApi(initial: Workspace[]) {
  const api = { rows: initial.map((row) => ({ ...row })), calls: [] as Call[] };
  const fields = (form: FormData) => Object.fromEntries([...form.keys()].map((key) => [key, form.get(key)]));
  const read = async (request: Request) => {
    const contentType = request.headers.get('content-type');
    if (contentType?.includes('multipart/form-data')) return fields(await request.clone().formData());
    if (contentType?.includes('application/json')) return request.clone().json();
    return undefined;
  };
  server.use(
    http.all(/\/api\/v1\/workspaces?(\/|$)/, async ({ request }) => {
      const url = new URL(request.url);
      api.calls.push({
        method: request.method,
        path: url.pathname.slice(API.length),
        contentType: request.headers.get('content-type'),
        body: await read(request),
      });
      return undefined;
    }),
    http.get(`${API}/workspaces`, () =>
      HttpResponse.json({
        message: 'Workspaces',
        data: { rows: [...api.rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), count: api.rows.length, countExact: true },
      }),
    ),
    http.post(`${API}/workspaces`, async ({ request }) => {
      const body = (await read(request)) as Record<string, string>;
      const row = workspace(api.rows.length + 1, {
        name: body.name,
        description: body.description ?? '',
        memberCount: 0,
        createdAt: '2026-03-01T00:00:00.000Z',
      });
      api.rows.push(row);
      return HttpResponse.json({ message: `The workspace ${row.name} has been created`, data: row }, { status: 201 });
    }),
    http.put(`${API}/workspace`, async ({ request }) => {
      const body = (await read(request)) as Record<string, string>;
      const row = api.rows.find((candidate) => candidate.id === body.id);
      if (!row) return HttpResponse.json({ message: 'Workspace not found' }, { status: 404 });
      if (body.name !== undefined) row.name = body.name;
      if (body.description !== undefined) row.description = body.description;
      if (body.isActive !== undefined) row.isActive = body.isActive === 'true';
      return HttpResponse.json({ message: `The workspace ${row.name} has been saved`, data: row });
    }),
    http.put(`${API}/workspace/:id`, ({ params }) => {
      const row = api.rows.find((candidate) => candidate.id === params.id);
      if (!row) return HttpResponse.json({ message: 'Workspace not found' }, { status: 404 });
      api.rows = api.rows.filter((candidate) => candidate !== row);
      return HttpResponse.json({ message: `The workspace ${row.name} has been deleted` });
    }),
  );
  return api;
}

const rowOf = (name: string) => screen.getByText(name, { selector: 'td, td *' }).closest('tr')!;
const bodyRowNames = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    // The first cell after the row's selection box.
    .map(
      (row) =>
        within(row)
          .getAllByRole('cell')
          .find((cell) => !cell.querySelector('input[type="checkbox"]'))?.textContent,
    );

// The first test also loads the console's lazy views: on a busy machine it needs more than a list test's time.
describe('workspaces', { timeout: 2 * FRAMEWORK_TIMEOUT_MS }, () => {
  it('the list reads GET /workspaces once and shows its rows; the search box and sorting work on the loaded rows', async () => {
    signIn();
    const api = workspacesApi([workspace(1), workspace(2, { name: 'Finance', isActive: false }), workspace(3, { name: 'Marketing' })]);
    renderDeclared([workspaces], { path: '/workspaces' });
    await screen.findByText('Finance', { selector: 'td, td *' });
    await listToolbarShown();
    expect(bodyRowNames()).toEqual(['Marketing', 'Finance', 'Workspace 1']);
    expect(rowOf('Marketing')).toHaveTextContent('About 3');
    expect(rowOf('Marketing')).toHaveTextContent('Ada Admin');
    expect(within(rowOf('Finance')).getByRole('switch', { name: 'Active: Finance' })).not.toBeChecked();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();

    await userEvent.type(screen.getByPlaceholderText('Search workspaces'), 'fin');
    await waitFor(() => expect(bodyRowNames()).toEqual(['Finance']));
    await userEvent.clear(screen.getByPlaceholderText('Search workspaces'));
    await waitFor(() => expect(bodyRowNames()).toHaveLength(3));
    await userEvent.click(screen.getByRole('button', { name: /sort by name/i }));
    await waitFor(() => expect(bodyRowNames()).toEqual(['Finance', 'Marketing', 'Workspace 1']));
    // No filter route: every read is the list route.
    expect(new Set(api.calls.map((call) => `${call.method} ${call.path}`))).toEqual(new Set(['GET /workspaces']));
  });

  it('create validates with the shared schema, then posts a form body with the name and description', async () => {
    signIn();
    const api = workspacesApi([workspace(1)]);
    const view = renderDeclared([workspaces], { path: '/workspaces/create' });
    const name = await screen.findByLabelText('Name');
    await userEvent.type(name, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'POST')).toEqual([]);

    await userEvent.clear(name);
    await userEvent.type(name, 'Data team');
    await userEvent.type(screen.getByLabelText('Description'), 'Pipelines and tables');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    const post = api.calls.find((call) => call.method === 'POST')!;
    expect(post.path).toBe('/workspaces');
    expect(post.contentType).toContain('multipart/form-data');
    expect(post.body).toEqual({ name: 'Data team', description: 'Pipelines and tables' });
    await waitFor(() => expect(view.location().pathname).toBe('/workspaces'));
    expect(await screen.findByText('The workspace Data team has been created')).toBeInTheDocument();
    expect(await screen.findByText('Data team', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('edit finds the record in the list, and sends PUT /workspace as a form body with the id and the changed fields', async () => {
    signIn();
    const api = workspacesApi([workspace(1), workspace(2)]);
    const view = renderDeclared([workspaces], { path: `/workspaces/${ID(2)}` });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Workspace 2');
    expect(screen.getByLabelText('Description')).toHaveValue('About 2');
    await userEvent.clear(name);
    await userEvent.type(name, 'Analytics');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
    const put = api.calls.find((call) => call.method === 'PUT')!;
    expect(put.path).toBe('/workspace');
    expect(put.contentType).toContain('multipart/form-data');
    expect(put.body).toEqual({ name: 'Analytics', id: ID(2) });
    await waitFor(() => expect(view.location().pathname).toBe('/workspaces'));
    expect(await screen.findByText('Analytics', { selector: 'td, td *' })).toBeInTheDocument();
    expect(api.rows.find((row) => row.id === ID(2))?.description).toBe('About 2');
  });

  it('edit: an emptied name is refused before anything is sent; an emptied description is sent as an empty field', async () => {
    signIn();
    const api = workspacesApi([workspace(1)]);
    renderDeclared([workspaces], { path: `/workspaces/${ID(1)}` });
    const name = await screen.findByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method === 'PUT')).toEqual([]);

    await userEvent.type(name, 'Workspace 1');
    await userEvent.clear(screen.getByLabelText('Description'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(1));
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ description: '', id: ID(1) });
    await waitFor(() => expect(api.rows[0].description).toBe(''));
  });

  it('the activation switch is an update of isActive: PUT /workspace with the id and isActive as form fields', async () => {
    signIn();
    const api = workspacesApi([workspace(1), workspace(2, { isActive: false })]);
    renderDeclared([workspaces], { path: '/workspaces' });
    await screen.findByText('Workspace 1', { selector: 'td, td *' });
    await userEvent.click(await within(rowOf('Workspace 1')).findByRole('switch', { name: 'Active: Workspace 1' }));
    expect(await screen.findByText('The workspace Workspace 1 has been saved')).toBeInTheDocument();
    await userEvent.click(within(rowOf('Workspace 2')).getByRole('switch', { name: 'Active: Workspace 2' }));
    await waitFor(() => expect(api.calls.filter((call) => call.method === 'PUT')).toHaveLength(2));
    const puts = api.calls.filter((call) => call.method === 'PUT');
    expect(puts.map((call) => [call.path, call.body])).toEqual([
      ['/workspace', { isActive: 'false', id: ID(1) }],
      ['/workspace', { isActive: 'true', id: ID(2) }],
    ]);
    puts.forEach((call) => expect(call.contentType).toContain('multipart/form-data'));
    await waitFor(() => expect(within(rowOf('Workspace 1')).getByRole('switch', { name: 'Active: Workspace 1' })).not.toBeChecked());
    expect(within(rowOf('Workspace 2')).getByRole('switch', { name: 'Active: Workspace 2' })).toBeChecked();
  });

  it('delete asks first, then calls PUT /workspace/{id} and the row goes', async () => {
    signIn();
    const api = workspacesApi([workspace(1), workspace(2)]);
    renderDeclared([workspaces], { path: '/workspaces' });
    await screen.findByText('Workspace 2', { selector: 'td, td *' });
    await userEvent.click(await within(rowOf('Workspace 2')).findByRole('button', { name: 'Delete Workspace 2' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('The workspace Workspace 2 has been deleted')).toBeInTheDocument();
    expect(api.calls.filter((call) => call.method !== 'GET').map((call) => `${call.method} ${call.path}`)).toEqual([
      `PUT /workspace/${ID(2)}`,
    ]);
    await waitFor(() => expect(screen.queryByText('Workspace 2', { selector: 'td, td *' })).toBeNull());
    expect(screen.getByText('Workspace 1', { selector: 'td, td *' })).toBeInTheDocument();
  });

  it('a user who may read and update workspaces gets the switch, but no create and no delete', async () => {
    signIn(plainUser);
    mockPolicies([{ resource: 'workspaces', actions: ['read', 'update'] }]);
    const api = workspacesApi([workspace(1)]);
    renderDeclared([workspaces], { path: '/workspaces' });
    await screen.findByText('Workspace 1', { selector: 'td, td *' });
    // The switch turns on once the policies are in: what follows is judged on them.
    await waitFor(() => expect(within(rowOf('Workspace 1')).getByRole('switch', { name: 'Active: Workspace 1' })).toBeEnabled());
    expect(within(rowOf('Workspace 1')).queryByRole('button', { name: 'Delete Workspace 1' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Create' })).toBeNull();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
