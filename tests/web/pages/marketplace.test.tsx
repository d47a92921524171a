import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { integrationOf, MARKETPLACE } from '../../../common/marketplace';
import type { SessionUser } from '../../../providers/types';
import type { Integration } from '../../../src/pages/marketplace/api';
import MarketplacePage from '../../../src/pages/marketplace/MarketplacePage';
import { AlertBar } from '../../../src/shell/AlertBar';
import { RENDER_TIMEOUT_MS, renderInConsole } from '../app/render';
import { adminUser, mockPolicies, plainUser, signIn } from '../framework/harness';
import { server } from '../msw';
import { connection } from '../resources/connections/connectionsApi';

const API = '/api/v1';
const NEW_CONNECTION = 'c0000000-0000-4000-8000-0000000000aa';
const FINANCE = 'a0000000-0000-4000-8000-000000000001';

/** The marketplace as the server answers it: its catalogue, with the company using S3 and Slack (inactive). */
function catalogue(): Integration[] {
  return MARKETPLACE.map((listing) => {
    const usage =
      listing.id === 's3'
        ? { connections: 2, activeConnections: 1 }
        : listing.id === 'slack'
          ? { connections: 1, activeConnections: 0 }
          : { connections: 0, activeConnections: 0 };
    return { ...integrationOf(listing), active: usage.activeConnections > 0, ...usage };
  });
}

interface Configuring {
  status?: number;
  message?: string;
  ok?: boolean;
}

/** The marketplace's routes, recording what the page sends. */
function marketplaceApi(integrations: Integration[] = catalogue()) {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  let next: Configuring = {};
  server.use(
    http.get(`${API}/marketplace`, () => {
      calls.push('GET /marketplace');
      return HttpResponse.json({ message: 'Marketplace', data: integrations });
    }),
    http.post(`${API}/marketplace/configure`, async ({ request }) => {
      calls.push('POST /marketplace/configure');
      const body = (await request.json()) as { name: string; integrationId: string; settings: Record<string, unknown> };
      bodies.push(body);
      if (next.status && next.status >= 400) return HttpResponse.json({ message: next.message }, { status: next.status });
      const ok = next.ok ?? true;
      const test = ok
        ? {
            ok,
            latencyMs: 42,
            detail: 'Bucket "lake": the first page under "exports/" listed 1 object',
            message: 'Connected in 42 ms',
            testedAt: '2026-11-02T10:00:00.000Z',
          }
        : {
            ok,
            latencyMs: null,
            detail: '',
            message: 'Google sign-in: Invalid JWT Signature. (invalid_grant) (HTTP 400)',
            testedAt: '2026-11-02T10:00:00.000Z',
          };
      const type = integrations.find((integration) => integration.id === body.integrationId)!.connectionType;
      return HttpResponse.json(
        {
          message: ok
            ? `Connection "${body.name}" created and tested: connected in 42 ms`
            : `Connection "${body.name}" created, but its test failed: ${test.message}`,
          data: {
            connection: connection({ id: NEW_CONNECTION, name: body.name, type, lastTestOk: ok, lastTestMessage: test.message }),
            test,
          },
        },
        { status: 201 },
      );
    }),
    http.get(`${API}/workspaces/active`, () =>
      HttpResponse.json({ message: 'Active workspaces', data: [{ id: FINANCE, name: 'Finance' }] }),
    ),
    http.get(`${API}/user/preferences`, () => HttpResponse.json({ message: 'Preferences', data: {} })),
  );
  return {
    calls,
    bodies,
    answerNext(answer: Configuring) {
      next = answer;
    },
  };
}

/** The alert bar stays outside the dialog, which hides it from the accessibility tree while open: found with `hidden`. */
function renderMarketplace(as: SessionUser = adminUser, path = '/marketplace') {
  signIn(as);
  return renderInConsole(
    <>
      <AlertBar />
      <MarketplacePage />
    </>,
    { path },
  );
}

const card = async (name: string) => screen.findByRole('article', { name });
const section = (name: string) => screen.getByRole('region', { name });
const helperOf = (input: HTMLElement) =>
  document.getElementById(input.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent ?? '';

async function openConfigure(user: UserEvent, name: string): Promise<HTMLElement> {
  await user.click(await screen.findByRole('button', { name: `Configure ${name}` }));
  return screen.findByRole('dialog', { name: `Configure ${name}` });
}

async function choose(user: UserEvent, scope: HTMLElement, label: string, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('the marketplace page', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('shows the integrations as cards by category, the ones in use badged "Active" with their connection count', async () => {
    marketplaceApi();
    renderMarketplace();
    expect(await screen.findByRole('heading', { level: 1, name: 'Marketplace' })).toBeInTheDocument();
    await card('Google Cloud Storage');
    const sections = screen.getAllByRole('region').map((region) => region.getAttribute('aria-labelledby'));
    expect(sections).toEqual(['category-cloud_storage', 'category-chat', 'category-code', 'category-compute', 'category-database']);
    expect(
      within(section('Cloud storage'))
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['S3-compatible storage', 'Google Cloud Storage', 'Azure Blob Storage']);
    expect(
      within(section('Code repositories'))
        .getAllByRole('article')
        .map((article) => article.getAttribute('data-integration')),
    ).toEqual(['bitbucket', 'git']);

    const s3 = await card('S3-compatible storage');
    expect(within(s3).getByText('Active')).toBeInTheDocument();
    const link = within(s3).getByRole('link', { name: '2 connections: The connections of S3-compatible storage' });
    expect(link).toHaveAttribute('href', `/connections?filter=${encodeURIComponent('{"type":["s3"]}')}`);
    const slack = await card('Slack');
    expect(within(slack).queryByText('Active')).toBeNull();
    expect(within(slack).getByText('1 connection')).toBeInTheDocument();
    const gcs = await card('Google Cloud Storage');
    expect(within(gcs).getByText('Not configured yet')).toBeInTheDocument();
    expect(within(gcs).getByRole('link', { name: 'Setup guide of Google Cloud Storage (opens in a new tab)' })).toHaveAttribute(
      'href',
      'https://cloud.google.com/iam/docs/keys-create-delete',
    );
    expect(within(gcs).getByRole('link', { name: /Setup guide/ })).toHaveAttribute('target', '_blank');
    expect(screen.getByText('9 integrations')).toBeInTheDocument();
  });

  it('filters by category and by search, kept in the address', async () => {
    const user = userEvent.setup();
    marketplaceApi();
    const view = renderMarketplace();
    await card('Slack');
    const filters = screen.getByRole('search', { name: 'Filter integrations' });
    await user.click(within(filters).getByRole('button', { name: 'Cloud storage' }));
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('data-integration'))).toEqual(['s3', 'gcs', 'azure_blob']);
    expect(view.location().search).toBe('?category=cloud_storage');

    await user.type(within(filters).getByRole('searchbox', { name: 'Search integrations' }), 'azure');
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('data-integration'))).toEqual(['azure_blob']);
    expect(screen.getByText('1 integration')).toBeInTheDocument();

    await user.click(within(filters).getByRole('button', { name: 'All' }));
    await user.clear(within(filters).getByRole('searchbox', { name: 'Search integrations' }));
    await user.type(within(filters).getByRole('searchbox', { name: 'Search integrations' }), 'sql files');
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('data-integration'))).toEqual(['bitbucket', 'git']);

    await user.type(within(filters).getByRole('searchbox', { name: 'Search integrations' }), ' nowhere');
    expect(screen.getByText('No integration matches. Clear the search or choose another category.')).toBeInTheDocument();
  });

  it('opens on the filter of a shared address', async () => {
    marketplaceApi();
    renderMarketplace(adminUser, '/marketplace?category=database&search=maria');
    await card('MySQL / MariaDB');
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('data-integration'))).toEqual(['mysql']);
    expect(screen.getByRole('button', { name: 'Databases' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('configures Google Cloud Storage from a form generated from its declared settings, then shows the test and links to the connection', async () => {
    const user = userEvent.setup();
    const api = marketplaceApi();
    const view = renderMarketplace();
    const dialog = await openConfigure(user, 'Google Cloud Storage');
    expect(
      within(dialog).getByText('CSV and Parquet files in a Google Cloud Storage bucket, read with a service account.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /Where to find what this form asks for/ })).toHaveAttribute(
      'href',
      'https://cloud.google.com/iam/docs/keys-create-delete',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Bucket' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Folder in the bucket' })).toHaveAttribute('placeholder', 'exports/');
    expect(within(dialog).getByLabelText(/^Service account key \(JSON\)/)).toHaveAttribute('type', 'password');
    expect(within(dialog).getByRole('textbox', { name: 'Endpoint' })).toHaveValue('https://storage.googleapis.com');
    expect(within(dialog).getByRole('switch', { name: 'Source' })).toBeChecked();
    expect(within(dialog).queryByRole('switch', { name: 'Destination' })).toBeNull();

    // The declared rules judge before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('textbox', { name: 'Bucket' }))).toBe('is required'));
    expect(helperOf(within(dialog).getByRole('textbox', { name: 'Name' }))).toBe('is required');
    await user.type(within(dialog).getByRole('textbox', { name: 'Bucket' }), 'Lake');
    await user.type(within(dialog).getByLabelText(/^Service account key/), 'not a key');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    await waitFor(() =>
      expect(helperOf(within(dialog).getByRole('textbox', { name: 'Bucket' }))).toBe(
        'must be a bucket name: 3 to 222 lowercase letters, digits, -, _ and .',
      ),
    );
    expect(helperOf(within(dialog).getByLabelText(/^Service account key/))).toBe(
      'must be the JSON key file of a service account (with client_email and private_key)',
    );
    expect(api.calls).toEqual(['GET /marketplace']);

    const key = JSON.stringify({
      type: 'service_account',
      client_email: 'reader@acme.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\\nMII\\n-----END PRIVATE KEY-----\\n',
    });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Data lake');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Bucket' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Bucket' }), 'lake');
    await user.type(within(dialog).getByRole('textbox', { name: 'Folder in the bucket' }), 'exports/');
    await user.clear(within(dialog).getByLabelText(/^Service account key/));
    await user.click(within(dialog).getByLabelText(/^Service account key/));
    await user.paste(key);
    await choose(user, dialog, 'Workspace', 'Finance');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));

    const result = await within(dialog).findByRole('status');
    expect(result).toHaveTextContent('OK in 42 ms');
    expect(result).toHaveTextContent('Bucket "lake": the first page under "exports/" listed 1 object');
    expect(within(dialog).getByText('The connection "Data lake" was saved and works.')).toBeInTheDocument();
    expect(api.bodies).toEqual([
      {
        integrationId: 'gcs',
        name: 'Data lake',
        workspaceId: FINANCE,
        isSource: true,
        settings: { bucket: 'lake', prefix: 'exports/', serviceAccountKey: key, endpoint: 'https://storage.googleapis.com' },
      },
    ]);
    expect(await screen.findByRole('alert', { hidden: true })).toHaveTextContent(
      'Connection "Data lake" created and tested: connected in 42 ms',
    );
    // The cards are read again: their counts changed.
    await waitFor(() => expect(api.calls).toEqual(['GET /marketplace', 'POST /marketplace/configure', 'GET /marketplace']));

    await user.click(within(dialog).getByRole('link', { name: 'Open the connection' }));
    await waitFor(() => expect(view.location().pathname).toBe(`/connections/${NEW_CONNECTION}/show`));
  });

  it('Azure Blob: the settings follow the chosen way of signing in', async () => {
    const user = userEvent.setup();
    const api = marketplaceApi();
    renderMarketplace();
    const dialog = await openConfigure(user, 'Azure Blob Storage');
    expect(within(dialog).getByLabelText(/^Account key/)).toHaveAttribute('type', 'password');
    expect(within(dialog).queryByLabelText(/^SAS token/)).toBeNull();
    expect(within(dialog).getByRole('textbox', { name: 'Endpoint' })).toHaveAttribute(
      'placeholder',
      'https://<account>.blob.core.windows.net',
    );
    await choose(user, dialog, 'Sign in with', 'Shared access signature (SAS)');
    expect(within(dialog).queryByLabelText(/^Account key/)).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Shop exports');
    await user.type(within(dialog).getByRole('textbox', { name: 'Storage account' }), 'acmedata');
    await user.type(within(dialog).getByRole('textbox', { name: 'Container' }), 'exports');
    await user.type(within(dialog).getByLabelText(/^SAS token/), 'sv=2022-11-02&sp=rl&sig=abc%3D');
    await user.click(within(dialog).getByRole('switch', { name: 'Source' }));
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    await within(dialog).findByRole('status');
    expect(api.bodies).toEqual([
      {
        integrationId: 'azure_blob',
        name: 'Shop exports',
        isSource: false,
        settings: { accountName: 'acmedata', container: 'exports', authMethod: 'sas', sasToken: 'sv=2022-11-02&sp=rl&sig=abc%3D' },
      },
    ]);
  });

  it("says a connection that could not connect was saved all the same, in the service's words", async () => {
    const user = userEvent.setup();
    const api = marketplaceApi();
    api.answerNext({ ok: false });
    renderMarketplace();
    const dialog = await openConfigure(user, 'Git repository');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Models');
    await user.type(within(dialog).getByRole('textbox', { name: 'Repository URL or path' }), 'https://git.example.com/models.git');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    const result = await within(dialog).findByRole('status');
    expect(result).toHaveTextContent('The connection failed');
    expect(result).toHaveTextContent('Google sign-in: Invalid JWT Signature. (invalid_grant) (HTTP 400)');
    expect(
      within(dialog).getByText(
        'The connection "Models" was saved, but it could not connect. Open it to correct its settings and test it again.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('alert', { hidden: true })).toHaveTextContent('Connection "Models" created, but its test failed');

    await user.click(within(dialog).getByRole('button', { name: 'Configure another' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it('a refusal of the server is the alert, and shows on the field it names', async () => {
    const user = userEvent.setup();
    const api = marketplaceApi();
    api.answerNext({ status: 409, message: 'name: a connection with this name already exists' });
    renderMarketplace();
    const dialog = await openConfigure(user, 'Git repository');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Models');
    await user.type(within(dialog).getByRole('textbox', { name: 'Repository URL or path' }), '/srv/git/models.git');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    expect(await screen.findByRole('alert', { hidden: true })).toHaveTextContent('name: a connection with this name already exists');
    await waitFor(() =>
      expect(helperOf(within(dialog).getByRole('textbox', { name: 'Name' }))).toBe('a connection with this name already exists'),
    );
    expect(within(dialog).queryByRole('status')).toBeNull();
  });

  it('draws the form from the settings the server declares', async () => {
    const user = userEvent.setup();
    const integrations = catalogue();
    const git = integrations.find((integration) => integration.id === 'git')!;
    git.settings = [...git.settings, { key: 'branch', label: 'Branch to read', kind: 'text', required: true, secret: false }];
    marketplaceApi(integrations);
    renderMarketplace();
    const dialog = await openConfigure(user, 'Git repository');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Models');
    await user.type(within(dialog).getByRole('textbox', { name: 'Repository URL or path' }), '/srv/git/models.git');
    await user.click(within(dialog).getByRole('button', { name: 'Test and save' }));
    await waitFor(() => expect(helperOf(within(dialog).getByRole('textbox', { name: 'Branch to read' }))).toBe('is required'));
  });
});

describe('permissions on the marketplace page', { timeout: RENDER_TIMEOUT_MS }, () => {
  it('without marketplace/create: the cards, and no way to configure', async () => {
    mockPolicies([{ resource: 'marketplace', actions: ['read'] }]);
    marketplaceApi();
    renderMarketplace(plainUser);
    await card('Google Cloud Storage');
    expect(screen.queryByRole('button', { name: /^Configure / })).toBeNull();
    expect(screen.getByText('Configuring an integration needs the permission to create in the marketplace.')).toBeInTheDocument();
    // The count is not a link for someone who may not list connections.
    expect(within(await card('S3-compatible storage')).queryByRole('link', { name: /connections/ })).toBeNull();
  });

  it('without marketplace/read: says so, and asks the server nothing', async () => {
    mockPolicies([{ resource: 'connections', actions: ['read'] }]);
    const api = marketplaceApi();
    renderMarketplace(plainUser);
    expect(
      await screen.findByText("You don't have access to the marketplace. Ask an admin for the marketplace permission."),
    ).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });
});
