import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import git from 'isomorphic-git';
import { createTestServer, type TestServer } from './harness';
import { jobRuns, jobRunSteps, qualityResults, qualityRuns, systemAudits } from '../../server/db/schema';
import { call, createOtherCompany, signInAdmin, snapshot, userWithPolicies } from './helpers';
import { gitHttpBackend, hasGitHttpBackend } from './connectors/fixtures-remote/git-http';
import { startLocalServer, type LocalServer } from './connectors/fixtures-remote/local-server';

/** Workflows, the job run tracker and the dashboard's charts (docs/api/workflows.md). */

const DENIED = 'Resource Access not provided';

let server: TestServer;
let adminToken: string;
let other: Awaited<ReturnType<typeof createOtherCompany>>;
let reader: Awaited<ReturnType<typeof userWithPolicies>>;
let pairId: string;
let sourceId: string;
let repositoryId: string;
let slackId: string;
let grantedRoot: string;
let repoDir: string;
let firstCommit: string;

const connection = async (body: Record<string, unknown>) => {
  const res = await call(server, 'POST', '/connections', { token: adminToken, body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
};

const copyTask = {
  id: 'copy-orders',
  name: 'Copy orders',
  type: 'copy',
  from: { table: 'public.orders' },
  to: { table: 'public.orders_copy', mode: 'replace' },
};
const workflowBody = (extra: Record<string, unknown> = {}) => ({
  name: `Nightly ${crypto.randomBytes(3).toString('hex')}`,
  pairId,
  tasks: [copyTask],
  ...extra,
});
const create = (body: Record<string, unknown>, token = adminToken) => call(server, 'POST', '/workflow', { token, body });

async function commitFile(dir: string, file: string, text: string, message: string) {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
  await git.add({ fs, dir, filepath: file });
  return git.commit({ fs, dir, message, author: { name: 'Data team', email: 'data@acme.test' } });
}

beforeAll(async () => {
  grantedRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-granted-'));
  server = await createTestServer({ filesRoots: [grantedRoot] });
  adminToken = (await signInAdmin(server)).accessToken!;
  other = await createOtherCompany(server);
  reader = await userWithPolicies(server, adminToken, 'flows.reader@acme.test', [{ resource: 'workflows', actions: ['read'] }]);
  const tag = crypto.randomBytes(4).toString('hex');
  sourceId = await connection({ name: 'Shop', type: 'embedded', settings: { database: `flow-shop-${tag}` } });
  const destinationId = await connection({
    name: 'Warehouse',
    type: 'embedded',
    isSource: false,
    isDestination: true,
    settings: { database: `flow-wh-${tag}` },
  });
  pairId = crypto.randomUUID();
  expect(
    (await call(server, 'PUT', `/source/destination/${pairId}`, { token: adminToken, body: { sourceId, destinationId } })).statusCode,
  ).toBe(201);
  // The repository sits in the company's own sub-folder of a folder the operator grants (FILES_ROOTS).
  repoDir = path.join(grantedRoot, server.company.companyId, 'repository');
  fs.mkdirSync(repoDir, { recursive: true });
  await git.init({ fs, dir: repoDir, defaultBranch: 'main' });
  firstCommit = await commitFile(repoDir, 'models/daily.sql', 'select 1;\n', 'first');
  await commitFile(repoDir, 'models/weekly.sql', 'select 2;\n', 'second');
  repositoryId = await connection({ name: 'SQL repository', type: 'git', settings: { url: repoDir } });
  slackId = await connection({ name: 'Alerts', type: 'slack', settings: { webhookUrl: 'https://hooks.example.test/T1' } });
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(grantedRoot, { recursive: true, force: true });
});

describe('POST /workflow and the workflow row', () => {
  it('makes a workflow with its tasks, schedule and notices, answers it whole, and audits it', async () => {
    const res = await create(
      workflowBody({
        name: 'Orders to the warehouse',
        repositoryConnectionId: repositoryId,
        tasks: [
          copyTask,
          { id: 'model', name: 'Build the model', type: 'sql', path: 'models/daily.sql', ref: 'main' },
          { id: 'tell', name: 'Tell the team', type: 'notify', message: 'Orders copied', slackConnectionId: slackId },
        ],
        schedule: { cron: '0 2 * * *', timezone: 'Europe/Paris' },
        retries: { max: 2, backoffSeconds: 30 },
        timeoutMinutes: 30,
        notifyOnFailure: { inApp: true, slackConnectionId: slackId, emails: ['oncall@acme.test'] },
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const row = res.json().data;
    expect(row).toMatchObject({
      name: 'Orders to the warehouse',
      jobId: row.id,
      engine: 'local',
      pairId,
      sourceName: 'Shop',
      destinationName: 'Warehouse',
      schedule: { cron: '0 2 * * *', timezone: 'Europe/Paris' },
      retries: { max: 2, backoffSeconds: 30 },
      timeoutMinutes: 30,
      concurrency: 1,
      isActive: true,
      lastRun: null,
      notifyOnFailure: { inApp: true, slackConnectionId: slackId, emails: ['oncall@acme.test'] },
    });
    expect(row.tasks.map((t: { name: string }) => t.name)).toEqual(['Copy orders', 'Build the model', 'Tell the team']);
    // The next 02:00 in Paris.
    const next = new Date(row.nextRunAt);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(next)).toBe('02:00');
    const [audit] = await server.db.select().from(systemAudits).where(eq(systemAudits.recordId, row.id));
    expect(audit).toMatchObject({ model: 'workflow', operation: 'create' });
  });

  it('names every bad field and stores nothing', async () => {
    const before = await snapshot(server.db);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [workflowBody({ tasks: [] }), 400, /^tasks: give at least one task/],
      [workflowBody({ pairId: crypto.randomUUID() }), 400, /^pairId: no such source\/destination pair/],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'upsert' } }] }),
        400,
        /tasks\.0\.to\.mode: Choose how the copy writes: create, replace, append or merge/,
      ],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x' } }] }),
        400,
        /tasks\.0\.to\.mode: Choose how the copy writes: create, replace, append or merge/,
      ],
      [workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'merge' } }] }), 400, /tasks\.0\.to\.keys: A merge needs key columns/],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'merge', keys: [] } }] }),
        400,
        /tasks\.0\.to\.keys: A merge needs key columns/,
      ],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'append', keys: ['id'] } }] }),
        400,
        /tasks\.0\.to\.keys: Only a merge takes key columns/,
      ],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'merge', keys: ['id', 'id'] } }] }),
        400,
        /tasks\.0\.to\.keys\.1: "id" is named twice/,
      ],
      [
        workflowBody({ tasks: [{ ...copyTask, to: { table: 'x', mode: 'replace' }, watermark: 'updated_at' }] }),
        400,
        /tasks\.0\.watermark: An incremental copy adds to its destination: choose append or merge/,
      ],
      [
        workflowBody({ tasks: [{ id: 'x', name: 'SQL', type: 'sql', path: 'models/daily.sql' }] }),
        400,
        /^repositoryConnectionId: SQL tasks need the repository/,
      ],
      [
        workflowBody({ tasks: [{ id: 'x', name: 'SQL', type: 'sql', path: '../etc/passwd.sql' }] }),
        400,
        /tasks\.0\.path: must be a relative path/,
      ],
      [workflowBody({ repositoryConnectionId: slackId }), 400, /^repositoryConnectionId: must be a git or Bitbucket connection/],
      [workflowBody({ tasks: [copyTask, { ...copyTask, id: 'other' }] }), 400, /tasks\.1\.name: "Copy orders" is the name of another task/],
      [
        workflowBody({ tasks: [{ id: 'q', name: 'Checks', type: 'quality', tableIds: [crypto.randomUUID()] }] }),
        400,
        /^tableIds: no such table/,
      ],
      [workflowBody({ schedule: { cron: 'every day', timezone: 'UTC' } }), 400, /schedule\.cron: must be a cron expression of five fields/],
      [workflowBody({ schedule: { cron: '0 2 * * *', timezone: 'Mars/Olympus' } }), 400, /schedule\.timezone: must be a time zone/],
      [workflowBody({ schedule: { cron: '99 2 * * *', timezone: 'UTC' } }), 400, /^schedule\.cron: /],
      [workflowBody({ retries: { max: 11 } }), 400, /retries\.max: must be at most 10/],
      [
        workflowBody({ databricksConnectionId: sourceId, databricksJobId: '12' }),
        400,
        /^databricksConnectionId: must be a Databricks connection/,
      ],
      [workflowBody({ colour: 'red' }), 400, /colour/],
      [workflowBody({ name: 'Orders to the warehouse' }), 409, /^name: a workflow with this name already exists/],
    ];
    for (const [body, status, message] of cases) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(status);
      expect(res.json().message, JSON.stringify(body).slice(0, 120)).toMatch(message);
    }
    expect(await snapshot(server.db)).toEqual(before);
  });

  it('needs workflows/create, and keeps other companies out', async () => {
    const denied = await create(workflowBody(), reader.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(DENIED);
    const mine = (await call(server, 'POST', '/workflow/filter/0/10', { token: adminToken, body: { search: 'Orders to' } })).json().data
      .rows[0];
    for (const [method, urlPath, body] of [
      ['GET', `/workflow/${mine.id}`],
      ['PUT', `/workflow/${mine.id}`, { name: 'Taken' }],
      ['POST', `/workflow/activate/${mine.id}`, { isActive: false }],
      ['POST', `/workflow/run/${mine.id}`, {}],
      ['POST', `/workflow/configure/${mine.id}`, {}],
      ['GET', `/jobRunTracker/${mine.id}/0/10`],
    ] as const) {
      const res = await call(server, method, urlPath, { token: other.adminToken, body });
      expect(res.statusCode, `${method} ${urlPath}`).toBe(404);
    }
    // Another company's pair cannot be named either.
    const theirs = await create(workflowBody(), other.adminToken);
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().message).toMatch(/^pairId: no such source\/destination pair/);
  });
});

describe('editing, activating, listing', () => {
  it('changes what is given, checks the result as a whole, and keeps the rest', async () => {
    const made = (await create(workflowBody({ name: 'Edited' }))).json().data;
    const res = await call(server, 'PUT', `/workflow/${made.id}`, {
      token: adminToken,
      body: { description: 'Every night', schedule: { cron: '30 1 * * 1', timezone: 'UTC' }, concurrency: 2 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      description: 'Every night',
      schedule: { cron: '30 1 * * 1', timezone: 'UTC' },
      concurrency: 2,
      tasks: [expect.objectContaining({ name: 'Copy orders' })],
    });
    const unscheduled = await call(server, 'PUT', `/workflow/${made.id}`, { token: adminToken, body: { schedule: null } });
    expect(unscheduled.json().data).toMatchObject({ schedule: null, nextRunAt: null });
    const sqlWithoutRepo = await call(server, 'PUT', `/workflow/${made.id}`, {
      token: adminToken,
      body: { tasks: [{ id: 's', name: 'S', type: 'sql', path: 'a.sql' }] },
    });
    expect(sqlWithoutRepo.statusCode).toBe(400);
    expect((await call(server, 'PUT', `/workflow/${made.id}`, { token: reader.token, body: { description: 'x' } })).statusCode).toBe(403);
  });

  it('deactivates and activates, refusing to run a deactivated workflow', async () => {
    const made = (await create(workflowBody({ name: 'Sleeper' }))).json().data;
    const off = await call(server, 'POST', `/workflow/activate/${made.id}`, { token: adminToken, body: { isActive: false } });
    expect(off.json()).toMatchObject({ message: 'Workflow "Sleeper" is deactivated', data: { isActive: false } });
    const run = await call(server, 'POST', `/workflow/run/${made.id}`, { token: adminToken });
    expect(run.statusCode).toBe(400);
    expect(run.json().message).toBe('The workflow "Sleeper" is deactivated; activate it first');
    expect(await server.db.select().from(jobRuns).where(eq(jobRuns.workflowId, made.id))).toEqual([]);
  });

  it('lists newest first, filters by connection, user, workspace and text, counts in cards', async () => {
    const names = async (body: Record<string, unknown>) =>
      (
        (await call(server, 'POST', '/workflow/filter/0/100', { token: reader.token, body })).json().data.rows as Array<{ name: string }>
      ).map((r) => r.name);
    expect(await names({ search: 'sleep' })).toEqual(['Sleeper']);
    expect((await names({ connection: sourceId })).length).toBeGreaterThanOrEqual(3);
    expect(await names({ connection: crypto.randomUUID() })).toEqual([]);
    const list = (await call(server, 'GET', '/workflow/0/100', { token: reader.token })).json().data.rows as Array<{ createdAt: string }>;
    expect(list.map((r) => r.createdAt)).toEqual([...list.map((r) => r.createdAt)].sort().reverse());
    const search = await call(server, 'GET', '/workflow/search/0/10?searchText=edited', { token: reader.token });
    expect(search.json().data.rows.map((r: { name: string }) => r.name)).toEqual(['Edited']);
    const props = (await call(server, 'GET', '/filters/workflow', { token: reader.token })).json().data;
    expect(props.connection.map((c: { name: string }) => c.name).sort()).toEqual(['Shop', 'Warehouse']);
    expect(props.user.map((u: { name: string }) => u.name)).toEqual(['Ada Admin']);
    const cards = Object.fromEntries(
      (await call(server, 'GET', '/workflow/topCards', { token: reader.token }))
        .json()
        .data.cards.map((c: { key: string; value: number }) => [c.key, c.value]),
    );
    expect(cards).toMatchObject({ total: list.length, active: list.length - 1, scheduled: 1 });
  });
});

describe('the repository of SQL tasks', () => {
  it("lists a repository's branches and its files at a ref", async () => {
    const res = await call(server, 'GET', `/workflow/connection/gitRepo/${repositoryId}`, { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ defaultBranch: 'main', ref: 'main', files: ['models/daily.sql', 'models/weekly.sql'] });
    expect(res.json().data.branches.map((b: { name: string }) => b.name)).toEqual(['main']);
    const older = await call(server, 'GET', `/workflow/connection/gitRepo/${repositoryId}?ref=${firstCommit}`, { token: reader.token });
    expect(older.json().data).toMatchObject({ commit: firstCommit, files: ['models/daily.sql'] });
    const notRepo = await call(server, 'GET', `/workflow/connection/gitRepo/${slackId}`, { token: reader.token });
    expect(notRepo.statusCode).toBe(400);
    const missing = await call(server, 'GET', `/workflow/connection/gitRepo/${repositoryId}?ref=nope`, { token: reader.token });
    expect(missing.statusCode).toBe(502);
  });

  it('checks a workflow against its repository and connections without running it', async () => {
    const made = (
      await create(
        workflowBody({
          name: 'Checked',
          repositoryConnectionId: repositoryId,
          tasks: [{ id: 's', name: 'Gone file', type: 'sql', path: 'models/gone.sql' }, copyTask],
        }),
      )
    ).json().data;
    const res = await call(server, 'POST', `/workflow/configure/${made.id}`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const { ok, problems } = res.json().data;
    expect(ok).toBe(false);
    expect(problems).toEqual(
      expect.arrayContaining([
        { task: 'Gone file', message: 'The repository has no models/gone.sql at main' },
        expect.objectContaining({ task: 'Copy orders', message: expect.stringMatching(/orders/) }),
      ]),
    );
  });
});

describe.skipIf(!hasGitHttpBackend)('the repositories of a Bitbucket workspace', () => {
  let bitbucket: LocalServer;
  let projectRoot: string;
  let bitbucketId: string;

  beforeAll(async () => {
    // The workspace "acme" holds the repository "analytics", a copy of the one above, served over
    // smart HTTP where the connection's API URL points (its origin, as bitbucket.org's own).
    projectRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'flows-bitbucket-'));
    const cloned = spawnSync('git', ['clone', '--quiet', '--bare', repoDir, path.join(projectRoot, 'acme', 'analytics.git')], {
      encoding: 'utf8',
    });
    expect(cloned.status, cloned.stderr).toBe(0);
    bitbucket = await startLocalServer(gitHttpBackend(projectRoot, 'x-bitbucket-api-token-auth', 'api-token', projectRoot));
    bitbucketId = await connection({
      name: 'Bitbucket',
      type: 'bitbucket',
      settings: { workspace: 'acme', email: 'ci-bot@acme.test', apiToken: 'api-token', apiUrl: `${bitbucket.url}/2.0` },
    });
  });
  afterAll(async () => {
    await bitbucket?.close();
    if (projectRoot) fs.rmSync(projectRoot, { recursive: true, force: true });
  });

  it("lists a repository's branches and files, its name first in every path, as SQL tasks name them", async () => {
    const res = await call(server, 'GET', `/workflow/connection/gitRepo/${bitbucketId}?path=analytics`, { token: reader.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      defaultBranch: 'main',
      ref: 'main',
      files: ['analytics/models/daily.sql', 'analytics/models/weekly.sql'],
    });
    const older = await call(server, 'GET', `/workflow/connection/gitRepo/${bitbucketId}?path=analytics/models&ref=${firstCommit}`, {
      token: reader.token,
    });
    expect(older.json().data).toMatchObject({ commit: firstCommit, files: ['analytics/models/daily.sql'] });
    const unnamed = await call(server, 'GET', `/workflow/connection/gitRepo/${bitbucketId}`, { token: reader.token });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toBe('path: name the Bitbucket repository first, as in analytics or analytics/models');
    const unknown = await call(server, 'GET', `/workflow/connection/gitRepo/${bitbucketId}?path=nowhere`, { token: reader.token });
    expect(unknown.statusCode).toBe(502);
  });

  it('checks SQL tasks against the repository their path names', async () => {
    const made = (
      await create(
        workflowBody({
          name: 'Checked on Bitbucket',
          repositoryConnectionId: bitbucketId,
          tasks: [
            { id: 'daily', name: 'Daily model', type: 'sql', path: 'analytics/models/daily.sql' },
            { id: 'gone', name: 'Gone model', type: 'sql', path: 'analytics/models/gone.sql' },
          ],
        }),
      )
    ).json().data;
    const res = await call(server, 'POST', `/workflow/configure/${made.id}`, { token: adminToken });
    expect(res.statusCode, res.body).toBe(200);
    const problems = res.json().data.problems as Array<{ task: string; message: string }>;
    expect(problems.filter((problem) => problem.task === 'Daily model')).toEqual([]);
    expect(problems).toContainEqual({ task: 'Gone model', message: 'The repository has no analytics/models/gone.sql at main' });
  });
});

describe('runs, their data-quality results, and the dashboard', () => {
  let workflowId: string;
  let runIds: string[] = [];
  /** Noon (or another hour) UTC, this many days ago. */
  const day = (daysAgo: number, hour = 12) => {
    const date = new Date();
    date.setUTCDate(date.getUTCDate() - daysAgo);
    date.setUTCHours(hour, 0, 0, 0);
    return date;
  };
  const date = (daysAgo: number) => day(daysAgo).toISOString().slice(0, 10);

  beforeAll(async () => {
    workflowId = (await create(workflowBody({ name: 'Charted' }))).json().data.id;
    const { companyId } = server.company;
    const rows = [
      { status: 'succeeded', queuedAt: day(3) },
      { status: 'failed', queuedAt: day(3, 13) },
      { status: 'succeeded', queuedAt: day(2) },
      { status: 'timed_out', queuedAt: day(1) },
    ];
    const made = await server.db
      .insert(jobRuns)
      .values(
        rows.map((r) => ({
          companyId,
          workflowId,
          trigger: 'manual',
          ...r,
          startedAt: r.queuedAt,
          endedAt: new Date(r.queuedAt.getTime() + 90_000),
        })),
      )
      .returning({ id: jobRuns.id });
    runIds = made.map((r) => r.id);
    await server.db.insert(jobRunSteps).values({
      companyId,
      runId: runIds[1],
      position: 1,
      taskId: 'copy-orders',
      name: 'Copy orders',
      type: 'copy',
      status: 'failed',
      error: 'relation "public.orders" does not exist',
    });
    const [qrun] = await server.db
      .insert(qualityRuns)
      .values({
        companyId,
        tableId: crypto.randomUUID(),
        jobRunId: runIds[1],
        trigger: 'workflow',
        status: 'failed',
        startedAt: day(3, 13),
        endedAt: day(3, 13),
      })
      .returning({ id: qualityRuns.id });
    const result = (ruleName: string, columnName: string | null, status: string) => ({
      companyId,
      runId: qrun.id,
      ruleId: crypto.randomUUID(),
      tableId: crypto.randomUUID(),
      ruleName,
      functionName: 'not_null',
      columnName,
      severity: 'fail',
      status,
      startedAt: day(3, 13),
      endedAt: day(3, 13),
    });
    await server.db
      .insert(qualityResults)
      .values([result('Email given', 'email', 'failed'), result('Name given', 'full_name', 'passed'), result('Some rows', null, 'passed')]);
  });

  it('lists a workflow’s runs and every run of the company, filtered by status and dates', async () => {
    const ofWorkflow = await call(server, 'GET', `/jobRunTracker/${workflowId}/0/10`, { token: reader.token });
    expect(ofWorkflow.json().data.rows.map((r: { status: string }) => r.status)).toEqual(['timed_out', 'succeeded', 'failed', 'succeeded']);
    const failed = await call(server, 'POST', `/jobRunTracker/filters?workflowId=${workflowId}&offset=0&limit=10`, {
      token: reader.token,
      body: { status: ['failed', 'timed_out'] },
    });
    expect(failed.json().data.rows.map((r: { id: string }) => r.id)).toEqual([runIds[3], runIds[1]]);
    const firstDay = await call(server, 'POST', '/jobRunTracker/filters?offset=0&limit=10', {
      token: reader.token,
      body: { startDate: date(3), endDate: date(3) },
    });
    expect(
      firstDay
        .json()
        .data.rows.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([runIds[0], runIds[1]].sort());
    const run = await call(server, 'GET', `/jobRunTracker/${runIds[1]}`, { token: reader.token });
    expect(run.json().data).toMatchObject({
      workflowName: 'Charted',
      status: 'failed',
      durationMs: 90_000,
      steps: [{ name: 'Copy orders', status: 'failed', error: 'relation "public.orders" does not exist' }],
    });
    const bad = await call(server, 'POST', '/jobRunTracker/filters', { token: reader.token, body: { status: 'sleeping' } });
    expect(bad.statusCode).toBe(400);
    expect((await call(server, 'GET', `/jobRunTracker/${runIds[1]}`, { token: other.adminToken })).statusCode).toBe(404);
    const props = (await call(server, 'GET', '/jobRunTracker/filters/props', { token: reader.token })).json().data;
    expect(props.status.map((s: { id: string }) => s.id)).toEqual(['queued', 'running', 'succeeded', 'failed', 'canceled', 'timed_out']);
  });

  it("answers a run's data-quality results, filtered by rule name and column", async () => {
    const all = await call(server, 'GET', `/jobRunTracker/${runIds[1]}/dataQuality?offset=0&limit=10`, { token: reader.token });
    expect(all.json().data.rows.map((r: { ruleName: string }) => r.ruleName)).toEqual(['Email given', 'Name given', 'Some rows']);
    const props = (await call(server, 'GET', `/dataQuality/filters?jobRunTrackerId=${runIds[1]}`, { token: reader.token })).json().data;
    expect(props).toEqual({
      qualityName: ['Email given', 'Name given', 'Some rows'].map((n) => ({ id: n, name: n })),
      columnName: ['email', 'full_name'].map((n) => ({ id: n, name: n })),
    });
    const filtered = await call(server, 'POST', `/dataQuality/filters?jobRunTrackerId=${runIds[1]}&offset=0&limit=10`, {
      token: reader.token,
      body: { columnName: 'email' },
    });
    expect(filtered.json().data.rows.map((r: { ruleName: string; status: string }) => [r.ruleName, r.status])).toEqual([
      ['Email given', 'failed'],
    ]);
    expect((await call(server, 'GET', `/jobRunTracker/${runIds[0]}/dataQuality`, { token: reader.token })).json().data.rows).toEqual([]);
  });

  it('draws daily runs by status, pies of the last 30 days, and connections by type', async () => {
    const daily = await call(server, 'GET', `/dashboard/dailyJobRunTracker/${date(4)}/${date(1)}`, { token: reader.token });
    expect(daily.statusCode, daily.body).toBe(200);
    expect(daily.json().data.days.map((d: Record<string, unknown>) => [d.date, d.succeeded, d.failed, d.timed_out])).toEqual([
      [date(4), 0, 0, 0],
      [date(3), 1, 1, 0],
      [date(2), 1, 0, 0],
      [date(1), 0, 0, 1],
    ]);
    const onlyFailed = await call(server, 'GET', `/dashboard/dailyJobRunTracker/${date(3)}/${date(1)}?jobRunStatus=failed`, {
      token: reader.token,
    });
    expect(onlyFailed.json().data.days.map((d: Record<string, number>) => d.succeeded + d.failed)).toEqual([1, 0, 0]);
    for (const [urlPath, message] of [
      [`/dashboard/dailyJobRunTracker/${date(1)}/${date(3)}`, /^from: must not be after to/],
      [`/dashboard/dailyJobRunTracker/${date(400)}/${date(1)}`, /^to: the range may cover at most 366 days/],
      [`/dashboard/dailyJobRunTracker/yesterday/${date(1)}`, /^from: must be a date/],
      [`/dashboard/dailyJobRunTracker/${date(3)}/${date(1)}?jobRunStatus=sleeping`, /^jobRunStatus: must be one of/],
    ] as const) {
      const res = await call(server, 'GET', urlPath, { token: reader.token });
      expect(res.statusCode, urlPath).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    const connections = (await call(server, 'GET', '/dashboard/distinctConnections', { token: reader.token })).json().data as Array<{
      type: string;
    }>;
    // The Bitbucket workspace is there when git could serve it.
    expect(connections.some((entry) => entry.type === 'bitbucket')).toBe(hasGitHttpBackend);
    expect(connections.filter((entry) => entry.type !== 'bitbucket')).toEqual([
      { type: 'embedded', label: 'Embedded database', count: 2, active: 2 },
      { type: 'slack', label: 'Slack', count: 1, active: 1 },
      { type: 'git', label: 'Git repository', count: 1, active: 1 },
    ]);
    const pies = (await call(server, 'GET', '/dashboard/pieCharts', { token: reader.token })).json().data;
    expect(pies).toEqual({
      runsByStatus: [
        { status: 'succeeded', count: 2 },
        { status: 'failed', count: 1 },
        { status: 'timed_out', count: 1 },
      ],
      checksByResult: [
        { status: 'passed', count: 2 },
        { status: 'failed', count: 1 },
      ],
    });
    const admin = (await call(server, 'GET', '/admin/dashboard/chart', { token: adminToken })).json().data.days;
    expect(admin).toHaveLength(14);
    expect(admin[13].signins).toBeGreaterThanOrEqual(1);
    expect((await call(server, 'GET', '/admin/dashboard/chart', { token: reader.token })).statusCode).toBe(403);
  });
});
