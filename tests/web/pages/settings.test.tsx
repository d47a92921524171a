import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { DEFAULT_PASSWORD_POLICY } from '../../../common/password-policy';
import { defaultServiceSettings } from '../../../common/settings';
import { alerts } from '../../../providers/alerts';
import type { SessionUser } from '../../../providers/types';
import type { EmailGroup, ServiceGroup } from '../../../src/pages/settings/api';
import { server } from '../msw';
import { renderRegisteredPage } from './renderRegisteredPage';

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

const ada: SessionUser = {
  id: 'u-ada',
  email: 'ada@acme.test',
  firstName: 'Ada',
  lastName: 'Admin',
  isAdmin: true,
  companyHostname: 'acme',
  accessToken: 'token-ada',
  token: 'token-ada',
  auth: true,
  navItems: { userNavItemJson: { items: [] } },
  impersonator: null,
};

function serviceGroup(overrides: Partial<ServiceGroup> = {}): ServiceGroup {
  return {
    id: 'service',
    label: 'Service settings',
    values: defaultServiceSettings(480),
    defaults: defaultServiceSettings(480),
    updatedAt: null,
    updatedBy: null,
    updatedByName: null,
    ...overrides,
  };
}

function emailGroup(overrides: Partial<EmailGroup> = {}): EmailGroup {
  const values = {
    host: 'smtp.acme.test',
    port: 587,
    secure: false,
    username: 'mailer',
    fromAddress: 'data@acme.test',
    fromName: 'Acme Data',
    passwordSet: true,
  };
  return {
    id: 'email',
    label: 'Email settings',
    values,
    defaults: { host: '', port: 587, secure: false, username: '', fromAddress: '', fromName: '', passwordSet: false },
    updatedAt: '2026-11-01T09:00:00.000Z',
    updatedBy: 'u-ada',
    updatedByName: 'Ada Admin',
    instanceTransport: 'outbox',
    ...overrides,
  };
}

interface Sent {
  method: string;
  path: string;
  body?: unknown;
}

/** The settings routes over two stored groups; PUT lays the body over them as the server does. */
function settingsApi(initial: { service?: ServiceGroup; email?: EmailGroup } = {}) {
  const sent: Sent[] = [];
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  let service = initial.service ?? serviceGroup();
  let email = initial.email ?? emailGroup();
  let saves = 0;
  let testAnswer = { ok: true, detail: '250 Accepted', to: 'ada@acme.test', server: 'smtp.acme.test:587' };
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(API.length);
      const body = request.headers.get('content-type')?.includes('json') ? await request.clone().json() : undefined;
      sent.push({ method: request.method, path, body });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/settings`, () => HttpResponse.json({ message: 'Settings', data: [service, email] })),
    http.put(`${API}/settings/service`, async ({ request }) => {
      saves += 1;
      service = {
        ...service,
        values: { ...service.values, ...((await request.json()) as object) },
        updatedAt: `2026-11-02T10:0${saves}:00.000Z`,
        updatedByName: 'Ada Admin',
      };
      return HttpResponse.json({ message: 'Service settings saved', data: service });
    }),
    http.put(`${API}/settings/email`, async ({ request }) => {
      saves += 1;
      const { password, ...values } = (await request.json()) as Record<string, unknown>;
      email = {
        ...email,
        values: { ...email.values, ...values, passwordSet: Boolean(password) || (email.values.passwordSet && Boolean(values.username)) },
        updatedAt: `2026-11-02T10:0${saves}:00.000Z`,
      };
      return HttpResponse.json({ message: 'Email settings saved', data: email });
    }),
    http.post(`${API}/settings/email/test`, async ({ request }) => {
      const { to } = (await request.json()) as { to?: string };
      return HttpResponse.json({
        message: testAnswer.ok ? 'A test mail was sent' : 'The test mail could not be sent',
        data: { ...testAnswer, to: to ?? 'ada@acme.test' },
      });
    }),
  );
  return {
    seen: (pattern?: RegExp) => sent.map((call) => `${call.method} ${call.path}`).filter((line) => !pattern || pattern.test(line)),
    bodiesOf: (pattern: RegExp) => sent.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern: RegExp, status: number, message: string) => failures.push({ pattern, status, message }),
    answerTestWith: (answer: typeof testAnswer) => {
      testAnswer = answer;
    },
  };
}

/** The console's page registry rendered as MainApp renders it, at /settings. */
function renderSettings(user: SessionUser = ada, path = '/settings') {
  return renderRegisteredPage('/settings', { user, at: path });
}

const input = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;

afterEach(() => alerts.clear());

describe('the settings page', { timeout: TIMEOUT_MS }, () => {
  it('shows the service settings with the server default and the rules they make, and saves them as a whole', async () => {
    const api = settingsApi();
    renderSettings();
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeInTheDocument();
    const lifetime = await screen.findByLabelText('Session lifetime (minutes)');
    expect(lifetime).toHaveValue(480);
    expect(screen.getByText(/The server default is 480\./)).toBeInTheDocument();
    expect(screen.getByText('Not changed yet: the defaults apply.')).toBeInTheDocument();
    expect(screen.getByTestId('policy-preview')).toHaveTextContent('New passwords: At least 10 characters, with letters and digits.');

    await userEvent.clear(lifetime);
    await userEvent.type(lifetime, '60');
    const minLength = input('Minimum length');
    await userEvent.clear(minLength);
    await userEvent.type(minLength, '14');
    await userEvent.click(input('An uppercase letter'));
    await userEvent.click(input('A symbol (such as - ! or #)'));
    expect(screen.getByTestId('policy-preview')).toHaveTextContent(
      'New passwords: At least 14 characters, with an uppercase letter, a digit and a symbol.',
    );
    await userEvent.click(input('Require two-factor authentication for everyone'));
    const domains = screen.getByRole('combobox', { name: 'Allowed email domains' });
    await userEvent.type(domains, 'acme.test{Enter}');
    await userEvent.type(domains, 'partner.example{Enter}');
    await userEvent.type(input('Keep system audits and access events (days)'), '365');

    await userEvent.click(screen.getByRole('button', { name: 'Save service settings' }));
    expect(await screen.findByText('Service settings saved')).toBeInTheDocument();
    expect(api.bodiesOf(/^PUT \/settings\/service/)).toEqual([
      {
        sessionLifetimeMinutes: 60,
        passwordPolicy: { ...DEFAULT_PASSWORD_POLICY, minLength: 14, requireUppercase: true, requireSymbol: true },
        requireTwoFactor: true,
        allowedEmailDomains: ['acme.test', 'partner.example'],
        auditRetentionDays: 365,
        runRetentionDays: null,
        qualitySampleRows: 20,
      },
    ]);
    expect(await screen.findByText(/Last changed on .* by Ada Admin\./)).toBeInTheDocument();
  });

  it('checks the values before sending, and shows a refusal of the server on the field it names', async () => {
    const api = settingsApi();
    renderSettings();
    const minLength = await screen.findByLabelText('Minimum length');
    await userEvent.clear(minLength);
    await userEvent.type(minLength, '6');
    const domains = screen.getByRole('combobox', { name: 'Allowed email domains' });
    await userEvent.type(domains, 'bad_domain{Enter}');
    await userEvent.click(screen.getByRole('button', { name: 'Save service settings' }));
    expect(await screen.findByText('must be at least 8')).toBeInTheDocument();
    expect(screen.getByText('"bad_domain" is not a domain name such as example.com')).toBeInTheDocument();
    expect(api.seen(/^PUT/)).toEqual([]);

    await userEvent.clear(minLength);
    await userEvent.type(minLength, '12');
    await userEvent.click(within(screen.getByRole('button', { name: 'bad_domain' })).getByTestId('CancelIcon'));
    api.failWith(/^PUT \/settings\/service/, 400, 'sessionLifetimeMinutes: must be at most 43,200');
    await userEvent.click(screen.getByRole('button', { name: 'Save service settings' }));
    expect(await screen.findAllByText('must be at most 43,200')).not.toHaveLength(0);
    expect(screen.getByText('sessionLifetimeMinutes: must be at most 43,200')).toBeInTheDocument();
  });

  it('keeps the saved SMTP password when its field is left blank, and sends a new one only when typed', async () => {
    const api = settingsApi();
    renderSettings(ada, '/settings?group=email');
    const host = await screen.findByLabelText('Host');
    expect(host).toHaveValue('smtp.acme.test');
    expect(screen.getByText('A password is saved: leave this blank to keep it.')).toBeInTheDocument();
    expect(
      screen.getByText('Without an SMTP server here, the mail of your company is kept in the mail outbox of this server.'),
    ).toBeInTheDocument();
    expect(input('Password')).toHaveValue('');

    const fromName = input('From name');
    await userEvent.clear(fromName);
    await userEvent.type(fromName, 'Acme Platform');
    await userEvent.click(screen.getByRole('button', { name: 'Save email settings' }));
    expect(await screen.findByText('Email settings saved')).toBeInTheDocument();
    await waitFor(() => expect(input('From name')).toHaveValue('Acme Platform'));
    await userEvent.type(input('Password'), 'New-smtp-secret-1');
    await userEvent.click(screen.getByRole('button', { name: 'Save email settings' }));
    await waitFor(() => expect(api.bodiesOf(/^PUT \/settings\/email/)).toHaveLength(2));
    const [first, second] = api.bodiesOf(/^PUT \/settings\/email/) as Record<string, unknown>[];
    expect(first).toEqual({
      host: 'smtp.acme.test',
      port: 587,
      secure: false,
      username: 'mailer',
      fromAddress: 'data@acme.test',
      fromName: 'Acme Platform',
    });
    expect(second).toMatchObject({ fromName: 'Acme Platform', password: 'New-smtp-secret-1' });
    // After the save the field is blank again: the password is never shown back.
    await waitFor(() => expect(input('Password')).toHaveValue(''));
  });

  it('sends a test mail through the unsaved settings and shows what the SMTP server said', async () => {
    const api = settingsApi();
    renderSettings(ada, '/settings?group=email');
    const port = await screen.findByLabelText('Port');
    await userEvent.clear(port);
    await userEvent.type(port, '2525');
    const to = screen.getByLabelText('Send the test to');
    expect(to).toHaveValue('ada@acme.test');
    await userEvent.clear(to);
    await userEvent.type(to, 'ops@acme.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send a test mail' }));
    const result = await screen.findByTestId('test-mail-result');
    expect(result).toHaveTextContent('The test mail was sent to ops@acme.test through smtp.acme.test:587.');
    expect(result).toHaveTextContent("The server's answer: 250 Accepted");
    expect(api.bodiesOf(/^POST \/settings\/email\/test/)).toEqual([
      {
        to: 'ops@acme.test',
        settings: {
          host: 'smtp.acme.test',
          port: 2525,
          secure: false,
          username: 'mailer',
          fromAddress: 'data@acme.test',
          fromName: 'Acme Data',
        },
      },
    ]);
    // Nothing was saved.
    expect(api.seen(/^PUT/)).toEqual([]);

    api.answerTestWith({
      ok: false,
      detail: 'Invalid login: 535 Authentication failed',
      to: 'ops@acme.test',
      server: 'smtp.acme.test:2525',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Send a test mail' }));
    await waitFor(() =>
      expect(screen.getByTestId('test-mail-result')).toHaveTextContent('The test mail could not be sent through smtp.acme.test:2525.'),
    );
    expect(screen.getByTestId('test-mail-result')).toHaveTextContent("The server's answer: Invalid login: 535 Authentication failed");

    // A refusal of the settings themselves is shown there too.
    api.failWith(/^POST \/settings\/email\/test/, 400, 'host: is required to send a test mail (the SMTP server to send it through)');
    await userEvent.click(screen.getByRole('button', { name: 'Send a test mail' }));
    await waitFor(() => expect(screen.getByTestId('test-mail-result')).toHaveTextContent('host: is required'));
  });

  it('is read-only without settings/update: no save, no test mail, inputs that cannot change', async () => {
    const bob: SessionUser = { ...ada, id: 'u-bob', email: 'bob@acme.test', isAdmin: false, accessToken: 'token-bob', token: 'token-bob' };
    server.use(
      http.get(`${API}/authorization/user/policies`, () =>
        HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies: [{ resource: 'settings', actions: ['read'] }] } }),
      ),
    );
    settingsApi({ service: serviceGroup({ values: { ...defaultServiceSettings(480), allowedEmailDomains: ['acme.test'] } }) });
    renderSettings(bob);
    expect(
      await screen.findByText('You can read these settings; changing them needs the permission to update settings.'),
    ).toBeInTheDocument();
    expect(await screen.findByLabelText('Session lifetime (minutes)')).toHaveAttribute('readonly');
    expect(screen.getByText('acme.test')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save service settings' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Email' }));
    expect(await screen.findByLabelText('Host')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save email settings' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a test mail' })).not.toBeInTheDocument();
  });
});
