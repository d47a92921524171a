import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { getStoredUser } from '../../../../providers/storage';
import ApiExplorerPage from '../../../../src/pages/api-explorer/ApiExplorerPage';
import { mockPreferencesServer } from '../../app/fixtures';
import { RENDER_TIMEOUT_MS, renderInConsole } from '../../app/render';
import { adminUser, signIn } from '../../framework/harness';
import { server } from '../../msw';
import { apiKeysApi } from '../../resources/apikeys/apikeysApi';

const KEY = 'dok_TryItKey0001_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The real API's routes the "Try it" calls reach, recording what arrives. */
function realApi() {
  const sent: Sent[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers.entries()),
      body:
        request.method === 'GET'
          ? undefined
          : await request
              .clone()
              .json()
              .catch(() => undefined),
    });
  };
  server.use(
    http.get('/api/v1/users/:offset/:limit', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ message: 'Users', data: { rows: [{ id: 'u-1', email: 'ada@acme.test' }], count: 1, countExact: true } });
    }),
    http.post('/api/v1/roles', async ({ request }) => {
      await record(request);
      return HttpResponse.json({ message: 'This API key is not allowed to call this operation' }, { status: 403 });
    }),
  );
  return sent;
}

function renderExplorer(path = '/api-explorer') {
  signIn(adminUser);
  // The console's frame reads the layout preferences.
  mockPreferencesServer();
  return renderInConsole(<ApiExplorerPage />, { path });
}

async function browser(): Promise<HTMLElement> {
  const nav = await screen.findByRole('navigation', { name: 'Operations' });
  await within(nav).findByRole('button', { name: /^GET \/users\/\{offset\}\/\{limit\} / });
  return nav;
}

describe('the API explorer', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('lists the operations of GET /openapi by tag with their methods, and the search narrows them', async () => {
    const api = apiKeysApi();
    renderExplorer();
    const nav = await browser();
    expect(api.seen(/openapi/)).toEqual(['GET /openapi']);
    const groups = [...nav.querySelectorAll('[data-tag]')].map((group) => group.getAttribute('data-tag'));
    expect(groups).toEqual(['Roles and policies', 'Users', 'Workspaces']);
    expect(within(nav).getByText('Workspaces (2)')).toBeInTheDocument();
    const put = within(nav).getByRole('button', { name: 'PUT /workspace Edit a workspace (name, description, active)' });
    expect(within(put).getByText('PUT')).toBeInTheDocument();
    expect(within(nav).getByText('5 operations')).toBeInTheDocument();

    await userEvent.type(within(nav).getByRole('searchbox', { name: 'Search operations' }), 'workspace put');
    expect(within(nav).getByText('1 operation')).toBeInTheDocument();
    expect(
      within(nav)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['PUT/workspaceEdit a workspace (name, description, active)']);
  });

  it('shows one operation from GET /openapi/{id}: its parameters and that it takes no body', async () => {
    const api = apiKeysApi();
    const view = renderExplorer();
    const nav = await browser();
    await userEvent.click(within(nav).getByRole('button', { name: /^GET \/users\/\{offset\}\/\{limit\} / }));
    const article = await screen.findByRole('article', { name: 'Read users by offset and limit' });
    expect(api.seen(/openapi\//)).toEqual(['GET /openapi/get_users_offset_limit']);
    expect(view.location().search).toBe('?operation=get_users_offset_limit');
    const parameters = within(article).getByRole('region', { name: 'Parameters' });
    const rows = within(parameters)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual(['offsetpathinteger (0–10000000)✓', 'limitpathinteger (1–1000)✓']);
    expect(within(article).getByText('This operation takes no body.')).toBeInTheDocument();
    expect(within(article).getByText('The company users, a page at a time.')).toBeInTheDocument();
  });

  it("sends the try-it call with x-api-key and without the session's token, and shows status, time and the answer", async () => {
    apiKeysApi();
    const sent = realApi();
    renderExplorer('/api-explorer?operation=get_users_offset_limit');
    const form = await screen.findByRole('form', { name: 'Try it' });
    expect(within(form).getByText(/runs with the key's access/)).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Send' }));
    expect(within(form).getAllByText('Required')).toHaveLength(2);
    expect(sent).toEqual([]);
    await userEvent.type(within(form).getByRole('textbox', { name: 'offset (path)' }), '0');
    await userEvent.type(within(form).getByRole('textbox', { name: 'limit (path)' }), '5');
    await userEvent.type(within(form).getByLabelText(/^API key/), KEY);
    await userEvent.click(within(form).getByRole('button', { name: 'Send' }));

    const answer = await within(form).findByRole('region', { name: 'Response' });
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('GET');
    expect(sent[0].path).toBe('/api/v1/users/0/5');
    expect(sent[0].headers['x-api-key']).toBe(KEY);
    expect(sent[0].headers['x-access-token']).toBeUndefined();
    expect(within(answer).getByText(/^Status 200/)).toBeInTheDocument();
    expect(within(answer).getByText(/^\d+ ms$/)).toBeInTheDocument();
    expect(within(answer).getByTestId('try-it-answer').textContent).toBe(
      JSON.stringify({ message: 'Users', data: { rows: [{ id: 'u-1', email: 'ada@acme.test' }], count: 1, countExact: true } }, null, 2),
    );
  });

  it('checks the key and the JSON body before sending anything', async () => {
    apiKeysApi();
    const sent = realApi();
    renderExplorer('/api-explorer?operation=post_roles');
    const form = await screen.findByRole('form', { name: 'Try it' });
    const body = within(form).getByRole('textbox', { name: 'Body (JSON)' });
    // The editor starts from the schema's required fields.
    expect(JSON.parse((body as HTMLTextAreaElement).value)).toEqual({ name: '' });
    await userEvent.click(within(form).getByRole('button', { name: 'Send' }));
    expect(within(form).getByText('Enter an API key')).toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText(/^API key/), KEY);
    await userEvent.clear(body);
    await userEvent.type(body, '{{"name": "Auditors",');
    expect(within(form).getByText(/^Not valid JSON:/)).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('button', { name: 'Send' }));
    expect(sent).toEqual([]);
  });

  it("a refusal of the key shows the server's answer and leaves the console's session alone", async () => {
    apiKeysApi();
    const sent = realApi();
    const view = renderExplorer('/api-explorer?operation=post_roles');
    const form = await screen.findByRole('form', { name: 'Try it' });
    const body = within(form).getByRole('textbox', { name: 'Body (JSON)' });
    await userEvent.clear(body);
    await userEvent.type(body, '{{"name": "Auditors"}');
    await userEvent.type(within(form).getByLabelText(/^API key/), KEY);
    await userEvent.click(within(form).getByRole('button', { name: 'Send' }));
    const answer = await within(form).findByRole('region', { name: 'Response' });
    expect(sent.map((call) => [call.method, call.path, call.body, call.headers['content-type'], call.headers['x-access-token']])).toEqual([
      ['POST', '/api/v1/roles', { name: 'Auditors' }, 'application/json', undefined],
    ]);
    expect(within(answer).getByText(/^Status 403/)).toBeInTheDocument();
    expect(within(answer).getByTestId('try-it-answer')).toHaveTextContent('This API key is not allowed to call this operation');
    // Not the console's own 403 handling: no move to the dashboard, still signed in.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(view.location().pathname).toBe('/api-explorer');
    expect(getStoredUser()?.accessToken).toBe(adminUser.accessToken);
  });

  it('without read access to API keys it says so and asks nothing', async () => {
    const api = apiKeysApi();
    server.use(
      http.get('/api/v1/authorization/user/policies', () =>
        HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies: [] } }),
      ),
    );
    signIn({ ...adminUser, isAdmin: false, accessToken: 'token-plain', token: 'token-plain' });
    mockPreferencesServer();
    renderInConsole(<ApiExplorerPage />, { path: '/api-explorer' });
    expect(await screen.findByText('You need read access to API keys to browse the API.')).toBeInTheDocument();
    expect(api.seen(/openapi/)).toEqual([]);
  });
});
