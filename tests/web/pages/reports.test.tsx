import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { type ReactNode } from 'react';
import { ResourceContextProvider } from 'react-admin';
import { alerts } from '../../../providers/alerts';
import type { SessionUser } from '../../../providers/types';
import { ShareViewButton } from '../../../src/framework/share/ShareViewButton';
import { reportRequest } from '../../../src/pages/reports/MakeReportDialog';
import type { ReportDetail, ReportRow } from '../../../src/pages/reports/api';
import { server } from '../msw';
import { renderRegisteredPage } from './renderRegisteredPage';

const API = '/api/v1';
const TIMEOUT_MS = 30_000;
configure({ asyncUtilTimeout: 10_000 });

// Ids are uuids, as the server's are: the share dialog checks the body by the server's own rules.
const ADA = '00000000-0000-4000-8000-000000000001';
const MIA = '00000000-0000-4000-8000-000000000002';
const WEEKLY = '00000000-0000-4000-8000-0000000000a1';
const MINE = '00000000-0000-4000-8000-0000000000a2';

let tokens = 0;
function user(overrides: Partial<SessionUser> = {}): SessionUser {
  tokens += 1;
  // A token of its own per test: the caller's policies are kept per token.
  return {
    id: ADA,
    email: 'ada@acme.test',
    firstName: 'Ada',
    lastName: 'Admin',
    isAdmin: true,
    companyHostname: 'acme',
    accessToken: `token-${tokens}`,
    token: `token-${tokens}`,
    auth: true,
    navItems: { userNavItemJson: { items: [] } },
    impersonator: null,
    ...overrides,
  };
}

const headline = [
  { key: 'runs', label: 'Job runs', value: 1280 },
  { key: 'failedRuns', label: 'Failed runs', value: 5 },
  { key: 'rowsCopied', label: 'Rows copied', value: 350 },
  { key: 'failedChecks', label: 'Failed checks', value: 3 },
  { key: 'failedSignIns', label: 'Failed sign-ins', value: 2 },
  { key: 'activeUsers', label: 'Active users', value: 7 },
];

function row(overrides: Partial<ReportRow> = {}): ReportRow {
  return {
    id: WEEKLY,
    kind: 'weekly',
    title: 'Weekly report',
    periodStart: '2026-11-02T05:00:00.000Z',
    periodEnd: '2026-11-09T05:00:00.000Z',
    periodLabel: '2 Nov 2026 – 8 Nov 2026',
    timezone: 'America/New_York',
    format: 'pdf',
    recipients: ['ada@acme.test'],
    createdBy: null,
    createdByName: null,
    createdAt: '2026-11-09T12:00:03.000Z',
    sentAt: '2026-11-09T12:00:03.000Z',
    headline,
    attachments: [{ id: 'a-1', fileName: 'weekly-report-acme-2026-11-02_2026-11-08.pdf', contentType: 'application/pdf', size: 5210 }],
    ...overrides,
  };
}

function detail(base: ReportRow): ReportDetail {
  return {
    ...base,
    summary: {
      runs: {
        total: 1280,
        byStatus: { queued: 0, running: 0, succeeded: 1275, failed: 4, canceled: 0, timed_out: 1 },
        failed: 5,
        rowsCopied: 350,
        failingWorkflows: [{ workflowId: 'w-1', name: 'Nightly copy', failures: 3 }],
      },
      quality: {
        runs: 3,
        runsByStatus: { passed: 0, warned: 1, failed: 2, error: 0 },
        checks: 5,
        checksByResult: { passed: 1, warned: 1, failed: 2, error: 1 },
        failedChecks: [{ tableId: 't-1', table: 'orders', rule: 'Email given', column: 'email', failures: 2 }],
      },
      security: { signIns: 30, failedSignIns: 2, blocked: 1, failedCodes: 0, newSessions: 28, impersonations: 1, addresses: 4 },
      usage: {
        activeUsers: 7,
        newUsers: 1,
        connections: { total: 4, added: 1 },
        tables: { total: 9, added: 0 },
        workflows: { total: 3, added: 0 },
        changes: 42,
        apiKeyChanges: 6,
        apiKeyRuns: 2,
      },
    },
  };
}

const people = [
  { id: ADA, email: 'ada@acme.test', firstName: 'Ada', lastName: 'Admin', roleName: 'Admin' },
  { id: MIA, email: 'mia@acme.test', firstName: 'Mia', lastName: 'Member', roleName: 'Member' },
];

interface Sent {
  method: string;
  path: string;
  body?: unknown;
  token: string | null;
}

/** The reports routes over a list kept here; every call is recorded. */
function reportsApi(options: { rows?: ReportRow[]; policies?: Array<{ resource: string; actions: string[] }> } = {}) {
  const sent: Sent[] = [];
  const failures: { pattern: RegExp; status: number; message: string }[] = [];
  let rows = options.rows ?? [
    row(),
    row({
      id: MINE,
      kind: 'on_demand',
      title: 'Report',
      periodLabel: '1 Nov 2026 – 7 Nov 2026',
      createdBy: ADA,
      createdByName: 'Ada Admin',
      format: 'csv',
      attachments: [{ id: 'a-2', fileName: 'report-acme-2026-11-01_2026-11-07.csv', contentType: 'text/csv; charset=utf-8', size: 900 }],
    }),
  ];
  server.use(
    http.all(`${API}/*`, async ({ request }) => {
      const path = new URL(request.url).pathname.slice(API.length);
      const body = request.headers.get('content-type')?.includes('application/json') ? await request.clone().json() : undefined;
      sent.push({ method: request.method, path, body, token: request.headers.get('x-access-token') });
      const failure = failures.find((candidate) => candidate.pattern.test(`${request.method} ${path}`));
      if (failure) return HttpResponse.json({ message: failure.message }, { status: failure.status });
      return undefined;
    }),
    http.get(`${API}/authorization/user/policies`, () =>
      HttpResponse.json({ message: 'Policies', data: { isAdmin: false, policies: options.policies ?? [] } }),
    ),
    http.get(`${API}/reports/:offset/:limit`, ({ params }) => {
      const offset = Number(params.offset);
      return HttpResponse.json({
        message: 'Reports',
        data: { rows: rows.slice(offset, offset + Number(params.limit)), count: rows.length, countExact: true },
      });
    }),
    http.get(`${API}/reports/:id`, ({ params }) => {
      const found = rows.find((candidate) => candidate.id === params.id);
      return found
        ? HttpResponse.json({ message: 'Report', data: detail(found) })
        : HttpResponse.json({ message: 'Report not found' }, { status: 404 });
    }),
    http.get(`${API}/reports/:id/attachments/:attachmentId`, ({ params }) => {
      const file = rows.flatMap((candidate) => candidate.attachments).find((candidate) => candidate.id === params.attachmentId)!;
      return new HttpResponse(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]), {
        headers: { 'content-type': file.contentType, 'content-disposition': `attachment; filename="${file.fileName}"` },
      });
    }),
    http.post(`${API}/reports`, async ({ request }) => {
      const body = (await request.json()) as { format?: 'pdf' | 'csv' };
      const made = row({
        id: `r-new-${rows.length}`,
        kind: 'on_demand',
        title: 'Report',
        periodLabel: '2 Nov 2026 – 3 Nov 2026',
        createdByName: 'Ada Admin',
        format: body.format ?? 'pdf',
      });
      rows = [made, ...rows];
      return HttpResponse.json({ message: 'Report made and mailed to 2 people', data: detail(made) }, { status: 201 });
    }),
    http.post(`${API}/shares`, async ({ request }) => {
      const body = (await request.json()) as { userIds: string[] };
      const n = body.userIds.length;
      return HttpResponse.json(
        { message: `Shared with ${n} ${n === 1 ? 'user' : 'users'}`, data: { id: 's-1', ...body } },
        { status: 201 },
      );
    }),
    http.get(`${API}/users/active`, () => HttpResponse.json({ message: 'Active users', users: people })),
  );
  return {
    sent,
    seen: (pattern?: RegExp) => sent.map((call) => `${call.method} ${call.path}`).filter((line) => !pattern || pattern.test(line)),
    bodiesOf: (pattern: RegExp) => sent.filter((call) => pattern.test(`${call.method} ${call.path}`)).map((call) => call.body),
    failWith: (pattern: RegExp, status: number, message: string) => failures.push({ pattern, status, message }),
  };
}

/** The console's page registry rendered as MainApp renders it. */
function renderAt(entry: string, caller: SessionUser, extra?: ReactNode) {
  return renderRegisteredPage('/reports', { user: caller, at: entry, routes: { '/job-runs': extra } });
}

let clicked: Array<{ download: string; href: string }> = [];
let blobs: Blob[] = [];
const originalCreate = URL.createObjectURL;
const originalRevoke = URL.revokeObjectURL;
const originalClick = HTMLAnchorElement.prototype.click;
beforeEach(() => {
  clicked = [];
  blobs = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:test/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    clicked.push({ download: this.download, href: this.getAttribute('href') ?? '' });
  };
});
afterEach(() => {
  URL.createObjectURL = originalCreate;
  URL.revokeObjectURL = originalRevoke;
  HTMLAnchorElement.prototype.click = originalClick;
  alerts.clear();
});

async function chooseUser(label: string, name: RegExp) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name }));
}

describe('the reports page', { timeout: TIMEOUT_MS }, () => {
  it('lists past reports with their period, kind, figures and files, and downloads a file with the token', async () => {
    const api = reportsApi();
    const caller = user();
    renderAt('/reports', caller);
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Past reports' });
    const weekly = (await within(table).findByText('2 Nov 2026 – 8 Nov 2026')).closest('tr')!;
    expect(weekly).toHaveTextContent('America/New_York');
    expect(weekly).toHaveTextContent('Weekly');
    expect(weekly).toHaveTextContent('by the server');
    expect(within(weekly).getByText('Job runs: 1,280')).toBeInTheDocument();
    expect(within(weekly).getByText('Failed runs: 5')).toBeInTheDocument();
    const mine = within(table).getByText('1 Nov 2026 – 7 Nov 2026').closest('tr')!;
    expect(mine).toHaveTextContent('On demand');
    expect(mine).toHaveTextContent('by Ada Admin');
    expect(api.seen(/^GET \/reports/)).toEqual(['GET /reports/0/10']);

    await userEvent.click(within(weekly).getByRole('button', { name: 'Download weekly-report-acme-2026-11-02_2026-11-08.pdf' }));
    await waitFor(() => expect(clicked).toEqual([{ download: 'weekly-report-acme-2026-11-02_2026-11-08.pdf', href: 'blob:test/1' }]));
    expect(blobs[0].type).toBe('application/pdf');
    expect(new Uint8Array(await blobs[0].arrayBuffer())).toEqual(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d]));
    const download = api.sent.find((call) => call.path === `/reports/${WEEKLY}/attachments/a-1`)!;
    expect(download.token).toBe(caller.accessToken);
  });

  it('shows a failed download as an error alert', async () => {
    const api = reportsApi();
    api.failWith(/attachments/, 404, 'Attachment not found');
    renderAt('/reports', user());
    const table = await screen.findByRole('table', { name: 'Past reports' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Download weekly-report-acme-2026-11-02_2026-11-08.pdf' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Attachment not found');
    expect(clicked).toEqual([]);
  });

  it('makes a report now: checks the chosen days, sends format, period and recipients, and lists the new report', async () => {
    const api = reportsApi();
    renderAt('/reports', user());
    await screen.findByRole('table', { name: 'Past reports' });
    await userEvent.click(screen.getByRole('button', { name: 'Make a report now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a report now' });
    await userEvent.click(within(dialog).getByRole('radio', { name: 'CSV (spreadsheet)' }));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Chosen days' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make the report' }));
    expect(await within(dialog).findByText('Choose the first day of the period.')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByLabelText('First day'), { target: { value: '2026-11-03' } });
    fireEvent.change(within(dialog).getByLabelText('Last day'), { target: { value: '2026-11-02' } });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make the report' }));
    expect(await within(dialog).findByText('The last day must not be before the first.')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText('First day'), { target: { value: '2026-11-02' } });
    fireEvent.change(within(dialog).getByLabelText('Last day'), { target: { value: '2026-11-03' } });
    await chooseUser('Also send it to', /Mia Member/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make the report' }));
    expect(await screen.findByText('Report made and mailed to 2 people')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(/^POST \/reports$/)).toEqual([
      { format: 'csv', periodStart: '2026-11-02', periodEnd: '2026-11-03', recipients: [MIA] },
    ]);
    // The list is read again and shows the new report first.
    await waitFor(() => expect(api.seen(/^GET \/reports\/0\/10$/)).toHaveLength(2));
    const table = screen.getByRole('table', { name: 'Past reports' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('2 Nov 2026 – 3 Nov 2026');
  });

  it("shows the server's refusal inside the dialog", async () => {
    const api = reportsApi();
    api.failWith(/^POST \/reports$/, 400, 'periodStart: must not be in the future');
    renderAt('/reports', user());
    await screen.findByRole('table', { name: 'Past reports' });
    await userEvent.click(screen.getByRole('button', { name: 'Make a report now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Make a report now' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Make the report' }));
    expect(await within(dialog).findByText('periodStart: must not be in the future')).toBeInTheDocument();
    // The default: a PDF of the last 7 days.
    expect(api.bodiesOf(/^POST \/reports$/)).toEqual([{ format: 'pdf' }]);
  });

  it('shares a report with chosen users and a message', async () => {
    const api = reportsApi();
    renderAt('/reports', user());
    const table = await screen.findByRole('table', { name: 'Past reports' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Share the report of 2 Nov 2026 – 8 Nov 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share Weekly report: 2 Nov 2026 – 8 Nov 2026' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await within(dialog).findByText('Choose at least one person to share with.')).toBeInTheDocument();
    expect(api.seen(/^POST/)).toEqual([]);

    await chooseUser('Share with', /Mia Member/);
    await userEvent.type(within(dialog).getByLabelText('Message (optional)'), 'Look at the failed runs');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Shared with 1 user')).toBeInTheDocument();
    expect(api.bodiesOf(/^POST \/shares$/)).toEqual([
      { kind: 'report', reportId: WEEKLY, userIds: [MIA], message: 'Look at the failed runs' },
    ]);
  });

  it('opens the report a link names (?report=) with all its figures', async () => {
    reportsApi();
    renderAt(`/reports?report=${WEEKLY}`, user());
    const details = await screen.findByRole('region', { name: 'Weekly report: 2 Nov 2026 – 8 Nov 2026' });
    expect(await within(details).findByRole('table', { name: 'Workflows that failed most' })).toHaveTextContent('Nightly copy3');
    expect(within(details).getByRole('table', { name: 'Failed checks by table and rule' })).toHaveTextContent('ordersEmail given (email)2');
    expect(within(details).getByRole('region', { name: 'Security' })).toHaveTextContent('Failed sign-ins2');
    expect(within(details).getByRole('region', { name: 'Usage' })).toHaveTextContent('Runs started with API keys2');
    expect(within(details).getByRole('button', { name: 'Download weekly-report-acme-2026-11-02_2026-11-08.pdf' })).toBeInTheDocument();
    await userEvent.click(within(details).getByRole('button', { name: 'Close the report' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Weekly report:/ })).not.toBeInTheDocument());
  });

  it('someone without the reports policy sees only the report shared with them, and no making or sharing', async () => {
    const api = reportsApi();
    renderAt(`/reports?report=${WEEKLY}`, user({ id: MIA, isAdmin: false }));
    expect(await screen.findByRole('region', { name: 'Weekly report: 2 Nov 2026 – 8 Nov 2026' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Past reports' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make a report now' })).not.toBeInTheDocument();
    expect(api.seen(/^GET \/reports\/\d+\/\d+$/)).toEqual([]);
  });

  it('a reader without reports/create may read and download but not make or share', async () => {
    reportsApi({ policies: [{ resource: 'reports', actions: ['read'] }] });
    renderAt('/reports', user({ id: '00000000-0000-4000-8000-000000000003', isAdmin: false }));
    const table = await screen.findByRole('table', { name: 'Past reports' });
    expect(await within(table).findByRole('button', { name: 'Download weekly-report-acme-2026-11-02_2026-11-08.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make a report now' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^Share/ })).not.toBeInTheDocument();
  });
});

describe('"Share this view" on a list', { timeout: TIMEOUT_MS }, () => {
  const view = '/job-runs?filter=%7B%22status%22%3A%22failed%22%7D&order=DESC';

  it('shares the list with its filters as a console path, under a title the sharer may change', async () => {
    const api = reportsApi();
    renderAt(
      view,
      user(),
      <ResourceContextProvider value="job-runs">
        <ShareViewButton />
      </ResourceContextProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Share this view' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share job-runs' });
    const title = within(dialog).getByLabelText(/^Title/);
    await userEvent.clear(title);
    await userEvent.type(title, 'Failed runs');
    await chooseUser('Share with', /Mia Member/);
    await chooseUser('Share with', /Ada Admin/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(await screen.findByText('Shared with 2 users')).toBeInTheDocument();
    expect(api.bodiesOf(/^POST \/shares$/)).toEqual([{ kind: 'list', path: view, title: 'Failed runs', userIds: [MIA, ADA], message: '' }]);
  });

  it('is not shown to someone who may not share', async () => {
    reportsApi({ policies: [{ resource: 'reports', actions: ['read'] }] });
    renderAt(
      view,
      user({ isAdmin: false }),
      <ResourceContextProvider value="job-runs">
        <p>Job runs</p>
        <ShareViewButton />
      </ResourceContextProvider>,
    );
    expect(await screen.findByText('Job runs')).toBeInTheDocument();
    // Let the policy check settle before looking for the button.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('button', { name: 'Share this view' })).not.toBeInTheDocument();
  });
});

describe('the report request the dialog makes', () => {
  it('sends the chosen days as calendar days and leaves out what was not chosen', () => {
    expect(reportRequest({ format: 'pdf', period: 'recent', from: '2026-11-02', to: '', recipients: [] })).toEqual({
      body: { format: 'pdf' },
    });
    expect(reportRequest({ format: 'csv', period: 'days', from: '2026-11-02', to: '2026-11-02', recipients: ['u-1'] })).toEqual({
      body: { format: 'csv', recipients: ['u-1'], periodStart: '2026-11-02', periodEnd: '2026-11-02' },
    });
    expect(reportRequest({ format: 'csv', period: 'days', from: '2026-11-02', to: '', recipients: [] })).toEqual({
      problem: 'to_required',
    });
  });
});
