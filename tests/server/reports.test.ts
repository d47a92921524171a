import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestServer, type TestServer } from './harness';
import { call, createActiveUser, createOtherCompany, inviteUser, mailsTo, signInAdmin, signInFully, userWithPolicies } from './helpers';
import {
  accessEvents,
  companies,
  connections,
  dataTables,
  jobRunSteps,
  jobRuns,
  mailOutbox,
  notifications,
  qualityResults,
  qualityRuns,
  reports,
  roles,
  sessions,
  shares,
  systemAudits,
  users,
  workflows,
} from '../../server/db/schema';
import type { ReportSummary } from '../../server/reports/document';
import { dueWeek } from '../../server/reports/period';
import { makeReport, reportCompany, type ReportServices } from '../../server/reports/reports';
import { startWeeklyReports, sweepWeeklyReports } from '../../server/reports/schedule';

/**
 * Weekly and on-demand reports and shares: figures read from crafted rows of two companies in a
 * time zone that is not UTC, the CSV and PDF attachments, the mails, the weekly sweep, and the
 * routes' validation, policies and tenancy.
 */

let server: TestServer;
let services: ReportServices;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let member: { id: string; email: string; password: string };
let colleague: { id: string; email: string; password: string };

const ZONE = 'America/New_York';
// The week of Monday 3 November 2025 in New York (EST, UTC-5: daylight saving ended on 2 November).
const WEEK_START = new Date('2025-11-03T05:00:00.000Z');
const WEEK_END = new Date('2025-11-10T05:00:00.000Z');
const inWeek = (hours: number) => new Date(WEEK_START.getTime() + hours * 3_600_000);
/** One second before the week starts in New York: Sunday 23:59:59 there, but already Monday in UTC. */
const JUST_BEFORE = new Date('2025-11-03T04:59:59.000Z');
const LONG_AGO = new Date('2024-01-01T00:00:00.000Z');

/** The text a PDF shows, read from its (uncompressed) content streams: the hex strings (WinAnsi) of each TJ array. */
const WIN_ANSI_HIGH: Record<number, string> = Object.fromEntries(
  [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'].map((c, i) => [0x80 + i, c]),
);
const winAnsi = { decode: (bytes: Buffer) => [...bytes].map((b) => WIN_ANSI_HIGH[b] ?? String.fromCharCode(b)).join('') };
function pdfText(bytes: Buffer): string {
  const source = bytes.toString('latin1');
  const lines: string[] = [];
  for (const array of source.matchAll(/\[((?:<[0-9a-fA-F]*>|[-\d.\s])*)\]\s*TJ/g)) {
    lines.push([...array[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => winAnsi.decode(Buffer.from(hex[1], 'hex'))).join(''));
  }
  return lines.join('\n');
}

async function seedCompanyRows(companyId: string, scale: number) {
  const db = server.db;
  const memberRole = (await db.select().from(users).where(eq(users.companyId, companyId)))[0].roleId;
  const [nightly, hourly, added] = await db
    .insert(workflows)
    .values([
      { companyId, name: scale === 1 ? 'Nightly copy' : 'Other nightly', pairId: crypto.randomUUID(), createdAt: LONG_AGO },
      { companyId, name: scale === 1 ? 'Hourly "sync", EU' : 'Other hourly', pairId: crypto.randomUUID(), createdAt: LONG_AGO },
      { companyId, name: scale === 1 ? 'Added in the week' : 'Other added', pairId: crypto.randomUUID(), createdAt: inWeek(50) },
      {
        companyId,
        name: scale === 1 ? 'Added later' : 'Other later',
        pairId: crypto.randomUUID(),
        createdAt: new Date(WEEK_END.getTime() + 86_400_000),
      },
    ])
    .returning();
  const run = (workflowId: string, status: string, queuedAt: Date, extra: Partial<typeof jobRuns.$inferInsert> = {}) => ({
    companyId,
    workflowId,
    status,
    trigger: 'manual',
    queuedAt,
    ...extra,
  });
  const runs = [];
  for (let i = 0; i < 3 * scale; i++) runs.push(run(nightly.id, 'failed', inWeek(10 + i)));
  runs.push(run(hourly.id, 'failed', inWeek(20)), run(hourly.id, 'timed_out', inWeek(21)));
  runs.push(run(nightly.id, 'succeeded', inWeek(30)), run(nightly.id, 'succeeded', inWeek(31)));
  runs.push(run(added.id, 'succeeded', inWeek(60), { trigger: 'api_key', apiKeyId: crypto.randomUUID() }));
  runs.push(run(nightly.id, 'failed', JUST_BEFORE), run(nightly.id, 'failed', WEEK_END));
  const storedRuns = await db.insert(jobRuns).values(runs).returning();
  const [copyA, copyB] = storedRuns.filter((r) => r.status === 'succeeded' && r.workflowId === nightly.id);
  const failedRun = storedRuns.find((r) => r.status === 'failed')!;
  const outside = storedRuns.find((r) => r.queuedAt.getTime() === WEEK_END.getTime())!;
  const step = (runId: string, type: string, status: string, rowsWritten: number, position = 0) => ({
    companyId,
    runId,
    position,
    taskId: `t${position}`,
    name: `Step ${position}`,
    type,
    status,
    rowsWritten,
  });
  await db
    .insert(jobRunSteps)
    .values([
      step(copyA.id, 'copy', 'succeeded', 100 * scale),
      step(copyA.id, 'sql', 'succeeded', 5, 1),
      step(copyB.id, 'copy', 'succeeded', 250 * scale),
      step(failedRun.id, 'copy', 'failed', 999),
      step(outside.id, 'copy', 'succeeded', 7777),
    ]);

  const [orders, customers] = await db
    .insert(dataTables)
    .values([
      {
        companyId,
        connectionId: crypto.randomUUID(),
        endpoint: 'public.orders',
        name: scale === 1 ? '=SUM(A1)' : 'other_orders',
        createdAt: LONG_AGO,
      },
      {
        companyId,
        connectionId: crypto.randomUUID(),
        endpoint: 'public.customers',
        name: scale === 1 ? 'customers' : 'other_customers',
        createdAt: inWeek(2),
      },
    ])
    .returning();
  const [q1, q2, q3, q4] = await db
    .insert(qualityRuns)
    .values([
      { companyId, tableId: orders.id, status: 'failed', startedAt: inWeek(5) },
      { companyId, tableId: orders.id, status: 'failed', startedAt: inWeek(6) },
      { companyId, tableId: customers.id, status: 'warned', startedAt: inWeek(7) },
      { companyId, tableId: orders.id, status: 'failed', startedAt: JUST_BEFORE },
    ])
    .returning();
  const result = (runId: string, tableId: string, ruleName: string, columnName: string | null, status: string) => ({
    companyId,
    runId,
    ruleId: crypto.randomUUID(),
    tableId,
    ruleName,
    functionName: 'not_null',
    columnName,
    severity: 'fail',
    status,
    startedAt: inWeek(5),
    endedAt: inWeek(5),
  });
  const failures = [];
  for (let i = 0; i < scale; i++)
    failures.push(result(q1.id, orders.id, 'Email given', 'email', 'failed'), result(q2.id, orders.id, 'Email given', 'email', 'failed'));
  await db
    .insert(qualityResults)
    .values([
      ...failures,
      result(q1.id, orders.id, 'Row count', null, 'warned'),
      result(q3.id, customers.id, 'Unique id', 'id', 'error'),
      result(q3.id, customers.id, 'Name given', 'name', 'passed'),
      result(q4.id, orders.id, 'Email given', 'email', 'failed'),
    ]);

  const event = (status: string, createdAt: Date, extra: Partial<typeof accessEvents.$inferInsert> = {}) => ({
    companyId,
    event: 'signin',
    status,
    createdAt,
    ...extra,
  });
  const someone = crypto.randomUUID();
  const another = crypto.randomUUID();
  const events = [
    event('success', inWeek(1), { userId: someone, ip: '10.0.0.1' }),
    event('success', inWeek(2), { userId: someone, ip: '10.0.0.1' }),
    event('success', inWeek(3), { userId: another, ip: '10.0.0.2' }),
    event('blocked', inWeek(4), { ip: '10.0.0.3', reason: 'throttled' }),
    event('failure', inWeek(167), { event: 'otp', userId: someone, ip: '10.0.0.1' }),
    event('failure', JUST_BEFORE, { ip: '10.9.9.9' }),
    event('failure', WEEK_END, { ip: '10.9.9.8' }),
  ];
  for (let i = 0; i < 2 * scale; i++) events.push(event('failure', inWeek(4 + i), { ip: '10.0.0.3' }));
  await db.insert(accessEvents).values(events);

  const session = (stage: string, createdAt: Date, impersonatorUserId: string | null = null) => ({
    companyId,
    userId: someone,
    stage,
    createdAt,
    expiresAt: createdAt,
    impersonatorUserId,
  });
  await db
    .insert(sessions)
    .values([session('full', inWeek(1)), session('full', inWeek(2), another), session('otp', inWeek(3)), session('full', JUST_BEFORE)]);
  await db.insert(users).values([
    { companyId, email: `new1-${scale}@example.test`, roleId: memberRole, createdAt: inWeek(8) },
    { companyId, email: `new2-${scale}@example.test`, roleId: memberRole, createdAt: inWeek(9) },
  ]);
  await db.insert(connections).values([
    { companyId, name: `Warehouse ${scale}`, type: 'postgres', createdAt: LONG_AGO },
    { companyId, name: `Lake ${scale}`, type: 'postgres', createdAt: inWeek(3) },
  ]);
  await db.insert(systemAudits).values([
    { companyId, model: 'user', operation: 'create', createdAt: inWeek(1) },
    { companyId, model: 'workflow', operation: 'update', createdAt: inWeek(2), apiKeyId: crypto.randomUUID() },
    { companyId, model: 'table', operation: 'create', createdAt: inWeek(3) },
    { companyId, model: 'table', operation: 'create', createdAt: JUST_BEFORE },
  ]);
}

beforeAll(async () => {
  server = await createTestServer();
  services = { db: server.db, mailer: server.app.ctx.mailer, config: server.config };
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  await server.db.update(companies).set({ timezone: ZONE, createdAt: LONG_AGO }).where(eq(companies.id, server.company.companyId));
  await server.db.update(companies).set({ createdAt: LONG_AGO }).where(eq(companies.id, other.companyId));
  // A role with no reports policy (the default Member role reads the company's reports).
  const [noReports] = await server.db
    .insert(roles)
    .values({ companyId: server.company.companyId, name: 'No reports', type: 'custom' })
    .returning({ id: roles.id });
  member = await createActiveUser(server, adminToken, { email: 'mia.member@acme.test', firstName: 'Mia', roleId: noReports.id });
  colleague = await createActiveUser(server, adminToken, { email: 'carl.colleague@acme.test', firstName: 'Carl' });
  await seedCompanyRows(server.company.companyId, 1);
  // The other company has more of everything in the same week: none of it may show in Acme's figures.
  await seedCompanyRows(other.companyId, 4);
});
afterAll(async () => server?.close());

const EXPECTED = {
  runs: {
    total: 8,
    byStatus: { queued: 0, running: 0, succeeded: 3, failed: 4, canceled: 0, timed_out: 1 },
    failed: 5,
    rowsCopied: 350,
    failingWorkflows: [
      { name: 'Nightly copy', failures: 3 },
      { name: 'Hourly "sync", EU', failures: 2 },
    ],
  },
  quality: {
    runs: 3,
    runsByStatus: { passed: 0, warned: 1, failed: 2, error: 0 },
    checks: 5,
    checksByResult: { passed: 1, warned: 1, failed: 2, error: 1 },
    failedChecks: [
      { table: '=SUM(A1)', rule: 'Email given', column: 'email', failures: 2 },
      { table: 'customers', rule: 'Unique id', column: 'id', failures: 1 },
    ],
  },
  security: { signIns: 3, failedSignIns: 2, blocked: 1, failedCodes: 1, newSessions: 2, impersonations: 1, addresses: 3 },
  usage: {
    activeUsers: 2,
    newUsers: 2,
    connections: { total: 2, added: 1 },
    tables: { total: 2, added: 1 },
    workflows: { total: 3, added: 1 },
    changes: 3,
    apiKeyChanges: 1,
    apiKeyRuns: 1,
  },
};

describe('an on-demand report', () => {
  let reportId: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an answer's JSON, checked field by field below
  let report: Record<string, any>;

  it('sums up the period on the company’s clocks from its own rows only', async () => {
    const res = await call(server, 'POST', '/reports', {
      token: adminToken,
      body: { periodStart: '2025-11-03', periodEnd: '2025-11-09', format: 'csv', recipients: [member.id] },
    });
    expect(res.statusCode, res.body).toBe(201);
    report = res.json().data;
    reportId = report.id;
    expect(res.json().message).toBe('Report made and mailed to 2 people');
    // Whole days in New York: Monday 00:00 EST to the Monday after, 00:00 EST.
    expect(report.periodStart).toBe(WEEK_START.toISOString());
    expect(report.periodEnd).toBe(WEEK_END.toISOString());
    expect(report.periodLabel).toBe('3 Nov 2025 – 9 Nov 2025');
    expect(report.timezone).toBe(ZONE);
    expect(report.kind).toBe('on_demand');
    expect(report.title).toBe('Report');
    expect(report.createdByName).toBe('Ada Admin');
    const { summary } = report;
    expect(summary.runs).toMatchObject({
      ...EXPECTED.runs,
      failingWorkflows: EXPECTED.runs.failingWorkflows.map((w) => expect.objectContaining(w)),
    });
    expect(summary.quality).toMatchObject({
      ...EXPECTED.quality,
      failedChecks: EXPECTED.quality.failedChecks.map((c) => expect.objectContaining(c)),
    });
    expect(summary.security).toEqual(EXPECTED.security);
    expect(summary.usage).toEqual(EXPECTED.usage);
    expect(report.headline).toEqual([
      { key: 'runs', label: 'Job runs', value: 8 },
      { key: 'failedRuns', label: 'Failed runs', value: 5 },
      { key: 'rowsCopied', label: 'Rows copied', value: 350 },
      { key: 'failedChecks', label: 'Failed checks', value: 3 },
      { key: 'failedSignIns', label: 'Failed sign-ins', value: 2 },
      { key: 'activeUsers', label: 'Active users', value: 2 },
    ]);
    expect(report.attachments).toEqual([
      {
        id: expect.any(String),
        fileName: 'report-acme-2025-11-03_2025-11-09.csv',
        contentType: 'text/csv; charset=utf-8',
        size: expect.any(Number),
      },
    ]);
    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'report'), eq(systemAudits.recordId, reportId)));
    expect(audit).toMatchObject({ operation: 'create', userId: server.company.adminUserId, companyId: server.company.companyId });
  });

  it('attaches a correct CSV, safe from spreadsheet formulas, served as a download', async () => {
    const file = report.attachments[0];
    const res = await call(server, 'GET', `/reports/${reportId}/attachments/${file.id}`, { token: adminToken });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="report-acme-2025-11-03_2025-11-09.csv"; filename*=UTF-8''report-acme-2025-11-03_2025-11-09.csv`,
    );
    expect(res.rawPayload.length).toBe(file.size);
    const rows: string[][] = parse(res.rawPayload, { bom: true });
    expect(rows[0]).toEqual(['section', 'figure', 'detail', 'value']);
    expect(rows.every((row) => row.length === 4)).toBe(true);
    expect(rows).toContainEqual(['Report', 'Company', '', 'Acme']);
    expect(rows).toContainEqual(['Report', 'Time zone', '', ZONE]);
    expect(rows).toContainEqual(['Report', 'Period start', '', WEEK_START.toISOString()]);
    expect(rows).toContainEqual(['Job runs', 'Runs', '', '8']);
    expect(rows).toContainEqual(['Job runs', 'Rows copied', '', '350']);
    // Quotes and commas in a name survive the round trip.
    expect(rows).toContainEqual(['Job runs', 'Workflows that failed most', 'Hourly "sync", EU', '2']);
    // A name a spreadsheet would run as a formula is kept as text.
    expect(rows).toContainEqual(['Data quality', 'Failed checks by table and rule', "'=SUM(A1) / Email given (email)", '2']);
    expect(rows).toContainEqual(['Security', 'Failed sign-ins', '', '2']);
    expect(rows).toContainEqual(['Usage', 'Runs started with API keys', '', '1']);
    expect(rows.flat().join(' ')).not.toContain('Other');
  });

  it('mails it with the file attached to every active admin, the chosen users and the one who asked', async () => {
    const subject = 'Report of Acme: 3 Nov 2025 – 9 Nov 2025';
    for (const address of [server.company.adminEmail, member.email]) {
      const mails = (await mailsTo(server.db, address)).filter((mail) => mail.kind === 'report' && mail.subject === subject);
      expect(mails, address).toHaveLength(1);
      expect(mails[0].attachments).toEqual([
        { fileName: 'report-acme-2025-11-03_2025-11-09.csv', contentType: 'text/csv; charset=utf-8', size: report.attachments[0].size },
      ]);
      expect(mails[0].companyId).toBe(server.company.companyId);
      expect(mails[0].text).toContain('Times are in America/New_York.');
      expect(mails[0].text).toMatch(/Runs: +8/);
      expect(mails[0].text).toMatch(/Nightly copy: 3/);
      expect(mails[0].text).toContain(`/reports?report=${reportId}`);
    }
    expect((await mailsTo(server.db, colleague.email)).filter((mail) => mail.kind === 'report')).toHaveLength(0);
    expect(report.recipients.sort()).toEqual([server.company.adminEmail, member.email].sort());
    expect(report.sentAt).not.toBeNull();
  });

  it('makes a PDF by default, for the last 7 days, holding the company name and the figures', async () => {
    const res = await call(server, 'POST', '/reports', { token: adminToken, body: {} });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data;
    expect(made.format).toBe('pdf');
    expect(new Date(made.periodEnd).getTime() - new Date(made.periodStart).getTime()).toBe(7 * 86_400_000);
    expect(Math.abs(new Date(made.periodEnd).getTime() - Date.now())).toBeLessThan(60_000);
    const file = made.attachments[0];
    expect(file.contentType).toBe('application/pdf');
    expect(file.fileName).toMatch(/^report-acme-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.pdf$/);
    const download = await call(server, 'GET', `/reports/${made.id}/attachments/${file.id}`, { token: adminToken });
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(download.rawPayload);
    expect(text).toContain('Acme');
    expect(text).toContain('Job runs');
    expect(text).toContain('Security');
    expect(text).toContain(`(${ZONE})`);
  });

  it('covers at most 366 days, counted on the company’s clocks', async () => {
    const longest = await call(server, 'POST', '/reports', {
      token: adminToken,
      body: { periodStart: '2023-01-01', periodEnd: '2024-01-01', format: 'csv' },
    });
    expect(longest.statusCode, longest.body).toBe(201);
    expect(longest.json().data.periodLabel).toBe('1 Jan 2023 – 1 Jan 2024');
    const tooLong = await call(server, 'POST', '/reports', {
      token: adminToken,
      body: { periodStart: '2023-01-01', periodEnd: '2024-01-02', format: 'csv' },
    });
    expect(tooLong.json().message).toBe('periodEnd: a report may cover at most 366 days');
  });

  it('refuses bad bodies with a message naming the field, and stores nothing', async () => {
    const before = (await server.db.select().from(reports)).length;
    const cases: Array<[unknown, RegExp]> = [
      [{ format: 'docx' }, /^format: must be one of pdf, csv/],
      [{ periodStart: 'last week' }, /^periodStart: must be a date such as 2026-11-02/],
      [{ periodStart: '2025-11-03T10:00:00' }, /^periodStart: must be a date/],
      [{ periodEnd: '2025-11-09' }, /^periodStart: is required when periodEnd is given/],
      [{ periodStart: '2025-11-09', periodEnd: '2025-11-03' }, /^periodEnd: must be after periodStart/],
      [{ periodStart: '2023-01-01', periodEnd: '2025-01-01' }, /^periodEnd: a report may cover at most 366 days/],
      [{ periodStart: '2999-01-01' }, /^periodStart: must not be in the future/],
      [{ recipients: ['not-an-id'] }, /^recipients\.0: must be a list of user ids/],
      [{ recipients: [other.adminUserId] }, new RegExp(`^recipients: this id is not an active user of the company: ${other.adminUserId}$`)],
      [{ colour: 'red' }, /^body: Unrecognized key: "colour"/],
    ];
    for (const [body, message] of cases) {
      const res = await call(server, 'POST', '/reports', { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    // An invited (not yet active) user is not a recipient either.
    const invited = await inviteUser(server, adminToken, { email: 'ivy.invited@acme.test' });
    const res = await call(server, 'POST', '/reports', { token: adminToken, body: { recipients: [member.id, invited.id] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`recipients: this id is not an active user of the company: ${invited.id}`);
    expect((await server.db.select().from(reports)).length).toBe(before);
  });
});

describe('the weekly sweep', () => {
  // Monday 10 November 2025 in New York: 06:59 and 07:30 EST.
  const beforeSeven = new Date('2025-11-10T11:59:00.000Z');
  const afterSeven = new Date('2025-11-10T12:30:00.000Z');

  it('finds the week due on the company’s clocks, across a daylight-saving change', () => {
    expect(dueWeek(afterSeven, ZONE)).toEqual({ start: WEEK_START, end: WEEK_END, dueAt: new Date('2025-11-10T12:00:00.000Z') });
    const earlier = dueWeek(beforeSeven, ZONE);
    // 27 October 00:00 EDT (UTC-4) to 3 November 00:00 EST (UTC-5): 169 hours.
    expect(earlier.start.toISOString()).toBe('2025-10-27T04:00:00.000Z');
    expect(earlier.end).toEqual(WEEK_START);
    expect(dueWeek(afterSeven, 'UTC')).toMatchObject({
      start: new Date('2025-11-03T00:00:00.000Z'),
      end: new Date('2025-11-10T00:00:00.000Z'),
    });
    // Tokyo's Monday 07:00 came long before: its week is already the one ending on 10 November there.
    expect(dueWeek(beforeSeven, 'Asia/Tokyo').end.toISOString()).toBe('2025-11-09T15:00:00.000Z');
  });

  it('makes one report per company per week, even when run twice or by two servers at once', async () => {
    const weeklyOf = (companyId: string) =>
      server.db
        .select()
        .from(reports)
        .where(and(eq(reports.companyId, companyId), eq(reports.kind, 'weekly')));
    // A company created after the week ended gets no report of it.
    const late = await createOtherCompany(server, 'initech');

    // Globex reads its weeks in UTC, where 07:00 on Monday 10 November has already passed.
    const first = await sweepWeeklyReports(services, beforeSeven);
    expect(first).toEqual({ made: 2, delivered: 0, failed: 0 });
    const [acmeEarlier] = await weeklyOf(server.company.companyId);
    expect(acmeEarlier.periodStart.toISOString()).toBe('2025-10-27T04:00:00.000Z');
    // The failed sign-in of Sunday 23:59:59 in New York belongs to this week, not the next.
    expect((acmeEarlier.summary as unknown as ReportSummary).security.failedSignIns).toBe(1);

    const [a, b] = await Promise.all([sweepWeeklyReports(services, afterSeven), sweepWeeklyReports(services, afterSeven)]);
    expect(a.made + b.made).toBe(1);
    expect(a.failed + b.failed).toBe(0);
    expect(await sweepWeeklyReports(services, afterSeven)).toEqual({ made: 0, delivered: 0, failed: 0 });

    const acme = await weeklyOf(server.company.companyId);
    expect(acme.map((r) => r.periodStart.toISOString()).sort()).toEqual(['2025-10-27T04:00:00.000Z', WEEK_START.toISOString()]);
    const globex = await weeklyOf(other.companyId);
    expect(globex.map((r) => r.periodStart.toISOString())).toEqual(['2025-11-03T00:00:00.000Z']);
    expect(await weeklyOf(late.companyId)).toHaveLength(0);

    // Made straight, a week already stored is refused by the unique index and answers null.
    const company = (await reportCompany(server.db, server.company.companyId))!;
    const again = await makeReport(services, {
      company,
      kind: 'weekly',
      period: { start: WEEK_START, end: WEEK_END },
      format: 'pdf',
      linkBase: 'http://localhost',
    });
    expect(again).toBeNull();
    expect(await weeklyOf(server.company.companyId)).toHaveLength(2);

    const week = acme.find((r) => r.periodStart.getTime() === WEEK_START.getTime())!;
    expect((week.summary as unknown as ReportSummary).runs.total).toBe(8);
    expect((week.summary as unknown as ReportSummary).security).toEqual(EXPECTED.security);
    expect(week.format).toBe('pdf');
    expect(week.createdBy).toBeNull();
  });

  it('mails the weekly PDF to each active admin once, with the subject naming the company and the week', async () => {
    const subject = 'Weekly report of Acme: 3 Nov 2025 – 9 Nov 2025';
    const mails = (await mailsTo(server.db, server.company.adminEmail)).filter((mail) => mail.subject === subject);
    expect(mails).toHaveLength(1);
    expect(mails[0].attachments).toEqual([
      { fileName: 'weekly-report-acme-2025-11-03_2025-11-09.pdf', contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    expect(mails[0].text).toContain('Weekly report of Acme: 3 Nov 2025 – 9 Nov 2025');
    // The figures keep their order although the stored summary comes back from jsonb with its keys reordered.
    const runsSection = mails[0].text.slice(mails[0].text.indexOf('\nJob runs\n'), mails[0].text.indexOf('\nData quality\n'));
    expect([...runsSection.matchAll(/^ {2}(\S[^:]*):/gm)].map((match) => match[1])).toEqual([
      'Runs',
      'Queued',
      'Running',
      'Succeeded',
      'Failed',
      'Canceled',
      'Timed out',
      'Rows copied',
      'Workflows that failed most',
    ]);
    // Members are not mailed weekly reports.
    expect((await mailsTo(server.db, member.email)).filter((mail) => mail.subject === subject)).toHaveLength(0);

    const [week] = await server.db
      .select()
      .from(reports)
      .where(and(eq(reports.companyId, server.company.companyId), eq(reports.kind, 'weekly'), eq(reports.periodStart, WEEK_START)));
    const list = (await call(server, 'GET', '/reports/0/10', { token: adminToken })).json().data;
    const file = list.rows.find((row: { id: string }) => row.id === week.id).attachments[0];
    const pdf = await call(server, 'GET', `/reports/${week.id}/attachments/${file.id}`, { token: adminToken });
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    for (const shown of [
      'Weekly report',
      'Acme',
      '3 Nov 2025 – 9 Nov 2025 (America/New_York)',
      'Nightly copy',
      'Hourly "sync", EU',
      '=SUM(A1)',
      'Email given (email)',
    ]) {
      expect(text, shown).toContain(shown);
    }
    expect(text).not.toContain('Other nightly');
  });

  it('mails a weekly report a crash left stored but unsent, once', async () => {
    const [week] = await server.db
      .update(reports)
      .set({ sentAt: null })
      .where(
        and(
          eq(reports.companyId, other.companyId),
          eq(reports.kind, 'weekly'),
          eq(reports.periodStart, new Date('2025-11-03T00:00:00.000Z')),
        ),
      )
      .returning();
    const subject = 'Weekly report of Globex: 3 Nov 2025 – 9 Nov 2025';
    expect((await mailsTo(server.db, other.adminEmail)).filter((mail) => mail.subject === subject)).toHaveLength(1);
    expect(await sweepWeeklyReports(services, afterSeven)).toEqual({ made: 0, delivered: 1, failed: 0 });
    expect(await sweepWeeklyReports(services, afterSeven)).toEqual({ made: 0, delivered: 0, failed: 0 });
    expect((await mailsTo(server.db, other.adminEmail)).filter((mail) => mail.subject === subject)).toHaveLength(2);
    const [after] = await server.db.select().from(reports).where(eq(reports.id, week.id));
    expect(after.sentAt).not.toBeNull();
  });
});

describe('the reports routes', () => {
  it('lists the company’s reports newest first with their attachments and headline figures', async () => {
    const res = await call(server, 'GET', '/reports/0/50', { token: adminToken });
    expect(res.statusCode).toBe(200);
    const { message, data } = res.json();
    expect(message).toBe('Reports');
    expect(data.countExact).toBe(true);
    expect(data.count).toBe(data.rows.length);
    const created = data.rows.map((row: { createdAt: string }) => row.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
    for (const row of data.rows) {
      expect(row.attachments).toHaveLength(1);
      expect(row.attachments[0]).toEqual({
        id: expect.any(String),
        fileName: expect.any(String),
        contentType: expect.any(String),
        size: expect.any(Number),
      });
      expect(row.headline.map((figure: { key: string }) => figure.key)).toEqual([
        'runs',
        'failedRuns',
        'rowsCopied',
        'failedChecks',
        'failedSignIns',
        'activeUsers',
      ]);
      expect(row).not.toHaveProperty('summary');
    }
    expect(data.rows.some((row: { title: string }) => row.title === 'Weekly report')).toBe(true);
    const globexReports = await server.db.select({ id: reports.id }).from(reports).where(eq(reports.companyId, other.companyId));
    expect(data.rows.map((row: { id: string }) => row.id)).not.toEqual(expect.arrayContaining([globexReports[0].id]));
    const page = (await call(server, 'GET', '/reports/1/1', { token: adminToken })).json().data;
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0].id).toBe(data.rows[1].id);
    expect((await call(server, 'GET', '/reports/0/0', { token: adminToken })).json().message).toBe('limit: must be at least 1');
  });

  it("answers another company's report and attachment like missing ones", async () => {
    const [theirs] = await server.db.select().from(reports).where(eq(reports.companyId, other.companyId)).limit(1);
    const theirFile = (await call(server, 'GET', `/reports/${theirs.id}`, { token: other.adminToken })).json().data.attachments[0];
    expect((await call(server, 'GET', `/reports/${theirs.id}`, { token: adminToken })).json()).toEqual({ message: 'Report not found' });
    const download = await call(server, 'GET', `/reports/${theirs.id}/attachments/${theirFile.id}`, { token: adminToken });
    expect(download.statusCode).toBe(404);
    expect(download.json()).toEqual({ message: 'Attachment not found' });
    expect((await call(server, 'GET', `/reports/${crypto.randomUUID()}`, { token: adminToken })).statusCode).toBe(404);
    expect((await call(server, 'GET', '/reports/nope', { token: adminToken })).json().message).toBe('id: must be a valid id');
    const share = await call(server, 'POST', '/shares', {
      token: adminToken,
      body: { kind: 'report', reportId: theirs.id, userIds: [member.id] },
    });
    expect(share.statusCode).toBe(404);
    expect(share.json().message).toBe('Report not found');
  });

  it('needs reports/read to read and reports/create to make or share', async () => {
    const nobody = await userWithPolicies(server, adminToken, 'no.reports@acme.test', []);
    const reader = await userWithPolicies(server, adminToken, 'reader@acme.test', [{ resource: 'reports', actions: ['read'] }]);
    const [one] = await server.db.select().from(reports).where(eq(reports.companyId, server.company.companyId)).limit(1);
    for (const [method, path, body] of [
      ['GET', '/reports/0/10', undefined],
      ['GET', `/reports/${one.id}`, undefined],
      ['POST', '/reports', {}],
      ['POST', '/shares', { kind: 'list', path: '/users', title: 'Users', userIds: [member.id] }],
    ] as const) {
      const res = await call(server, method, path, { token: nobody.token, body });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json().message).toBe('Resource Access not provided');
    }
    expect((await call(server, 'GET', '/reports/0/10', { token: reader.token })).statusCode).toBe(200);
    expect((await call(server, 'GET', `/reports/${one.id}`, { token: reader.token })).statusCode).toBe(200);
    expect((await call(server, 'POST', '/reports', { token: reader.token, body: {} })).statusCode).toBe(403);
    expect(
      (await call(server, 'POST', '/shares', { token: reader.token, body: { kind: 'report', reportId: one.id, userIds: [member.id] } }))
        .statusCode,
    ).toBe(403);
  });
});

describe('shares', () => {
  it('shares a report: each recipient is notified, mailed the attachment, and may then read that report', async () => {
    const sharer = await userWithPolicies(server, adminToken, 'sam.sharer@acme.test', [
      { resource: 'reports', actions: ['read', 'create'] },
    ]);
    const [week] = await server.db
      .select()
      .from(reports)
      .where(and(eq(reports.companyId, server.company.companyId), eq(reports.kind, 'weekly'), eq(reports.periodStart, WEEK_START)));
    const res = await call(server, 'POST', '/shares', {
      token: sharer.token,
      body: { kind: 'report', reportId: week.id, userIds: [member.id], message: 'Look at the failed runs.\nThanks!' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe('Shared with 1 user');
    expect(data).toMatchObject({
      kind: 'report',
      reportId: week.id,
      path: null,
      title: 'Weekly report: 3 Nov 2025 – 9 Nov 2025',
      recipientIds: [member.id],
      createdBy: sharer.id,
    });

    const [note] = await server.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, member.id), eq(notifications.type, 'share')));
    expect(note).toMatchObject({
      link: `/reports?report=${week.id}`,
      message: 'Look at the failed runs.\nThanks!',
      createdBy: sharer.id,
      status: 'unread',
    });
    expect(note.title).toBe('Ivy Invitee shared "Weekly report: 3 Nov 2025 – 9 Nov 2025" with you');

    const [mail] = (await mailsTo(server.db, member.email)).filter((m) => m.kind === 'share');
    expect(mail.subject).toBe('Ivy Invitee shared "Weekly report: 3 Nov 2025 – 9 Nov 2025" with you');
    expect(mail.attachments).toEqual([
      { fileName: 'weekly-report-acme-2025-11-03_2025-11-09.pdf', contentType: 'application/pdf', size: expect.any(Number) },
    ]);
    expect(mail.text).toContain('> Look at the failed runs.\n> Thanks!');
    expect(mail.text).toMatch(new RegExp(`Open it: https?://[^\\s]+/reports\\?report=${week.id}`));

    const [audit] = await server.db
      .select()
      .from(systemAudits)
      .where(and(eq(systemAudits.model, 'share'), eq(systemAudits.recordId, data.id)));
    expect(audit).toMatchObject({ operation: 'create', userId: sharer.id });

    // The member holds no reports policy, but may read (and download) the report shared with them…
    const memberToken = (await signInFully(server, member)).accessToken!;
    const shown = await call(server, 'GET', `/reports/${week.id}`, { token: memberToken });
    expect(shown.statusCode).toBe(200);
    const fileId = shown.json().data.attachments[0].id;
    expect((await call(server, 'GET', `/reports/${week.id}/attachments/${fileId}`, { token: memberToken })).statusCode).toBe(200);
    // …and no other.
    const [notShared] = await server.db
      .select()
      .from(reports)
      .where(and(eq(reports.companyId, server.company.companyId), eq(reports.kind, 'on_demand')))
      .limit(1);
    expect((await call(server, 'GET', `/reports/${notShared.id}`, { token: memberToken })).statusCode).toBe(403);
    expect((await call(server, 'GET', '/reports/0/10', { token: memberToken })).statusCode).toBe(403);
  });

  it('shares a list view by its console path with several users', async () => {
    const path = '/job-runs?filter=%7B%22status%22%3A%22failed%22%7D&order=DESC';
    const res = await call(server, 'POST', '/shares', {
      token: adminToken,
      body: { kind: 'list', path, title: 'Failed runs', userIds: [member.id, colleague.id, member.id] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().message).toBe('Shared with 2 users');
    expect(res.json().data).toMatchObject({ kind: 'list', path, title: 'Failed runs', reportId: null, message: '' });
    for (const person of [member, colleague]) {
      const notes = await server.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, person.id), eq(notifications.link, path)));
      expect(notes).toHaveLength(1);
      expect(notes[0].title).toBe('Ada Admin shared "Failed runs" with you');
      const [mail] = (await mailsTo(server.db, person.email)).filter(
        (m) => m.kind === 'share' && m.subject === 'Ada Admin shared "Failed runs" with you',
      );
      expect(mail.text).toContain(`${path}`);
      expect(mail.attachments).toEqual([]);
    }
    const stored = await server.db.select().from(shares).where(eq(shares.path, path));
    expect(stored).toHaveLength(1);
  });

  it('refuses recipients outside the active users of the company, and paths that leave the console', async () => {
    const sharesBefore = (await server.db.select().from(shares)).length;
    const mailsBefore = (await server.db.select().from(mailOutbox)).length;
    const stranger = crypto.randomUUID();
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { kind: 'list', path: '/users', title: 'Users', userIds: [member.id, stranger, other.adminUserId] },
        `userIds: these ids are not active users of the company: ${stranger}, ${other.adminUserId}`,
      ],
      [{ kind: 'list', path: '/users', title: 'Users', userIds: [] }, 'userIds: choose at least one user'],
      [
        { kind: 'list', path: 'https://evil.example/x', title: 'X', userIds: [member.id] },
        /^path: must be a path of the console starting with '\/'/,
      ],
      [
        { kind: 'list', path: '//evil.example/x', title: 'X', userIds: [member.id] },
        'path: must be a path of the console, not an address of another site',
      ],
      [
        { kind: 'list', path: '/\\evil.example', title: 'X', userIds: [member.id] },
        'path: may not hold spaces, back-slashes or control characters',
      ],
      [
        { kind: 'list', path: '/api/v1/users/0/10', title: 'X', userIds: [member.id] },
        'path: must be a page of the console, not an API address',
      ],
      [{ kind: 'list', path: `/users?q=${'x'.repeat(2000)}`, title: 'X', userIds: [member.id] }, 'path: must be at most 2000 characters'],
      [{ kind: 'list', path: '/users', userIds: [member.id] }, 'title: is required'],
      [{ kind: 'report', userIds: [member.id] }, 'reportId: must be a valid id'],
      [{ kind: 'dashboard', userIds: [member.id] }, 'kind: must be report or list'],
      [{ userIds: [member.id] }, 'kind: must be report or list'],
      [
        { kind: 'list', path: '/users', title: 'X', userIds: [member.id], message: 'x'.repeat(2001) },
        'message: must be at most 2000 characters',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await call(server, 'POST', '/shares', { token: adminToken, body });
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      if (typeof message === 'string') expect(res.json().message).toBe(message);
      else expect(res.json().message).toMatch(message);
    }
    expect((await server.db.select().from(shares)).length).toBe(sharesBefore);
    expect((await server.db.select().from(mailOutbox)).length).toBe(mailsBefore);
  });
});

describe('the schedule', () => {
  it('sweeps at start, makes the week due now, and stops cleanly', async () => {
    const logged: string[] = [];
    const schedule = startWeeklyReports(services, (line) => logged.push(line), 60_000);
    await schedule.stop();
    expect(logged).toEqual([]);
    const due = dueWeek(new Date(), ZONE);
    const [made] = await server.db
      .select()
      .from(reports)
      .where(and(eq(reports.companyId, server.company.companyId), eq(reports.kind, 'weekly'), eq(reports.periodStart, due.start)));
    expect(made).toBeDefined();
    expect(made.sentAt).not.toBeNull();
  });
});
