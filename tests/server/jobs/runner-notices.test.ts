import crypto from 'node:crypto';
import os from 'node:os';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sealSecrets } from '../../../server/connections/records';
import { connections, mailOutbox, notifications, users } from '../../../server/db/schema';
import { TEST_HTTP } from '../connectors/test-context';
import type { LocalRunner } from '../../../server/jobs/local-runner';
import { createMailer } from '../../../server/mail/mailer';
import { closedPort } from '../connectors/db-helpers';
import { startLocalServer, type LocalServer } from '../connectors/fixtures-remote/local-server';
import {
  eventually,
  gate,
  insertWorkflow,
  openRunnerWorld,
  runReaches,
  runsOf,
  waitUnlessStopped,
  type RunnerWorld,
} from './runner-fixture';

/**
 * Failure notices: a run that ends failed or timed out tells the user who started it (else the
 * workflow's creator) in the console, and Slack (a real HTTP server on this machine standing for
 * the webhook) and mail (the outbox, or an SMTP server that does not answer) when the workflow
 * asks. A notice that cannot be sent is written in the run's log and changes nothing else.
 */

const WEBHOOK_PATH = '/services/T0001/B0001/failures';
const CONSOLE_URL = 'https://console.acme.test';

let world: RunnerWorld;
let runner: LocalRunner;
let slack: LocalServer;
let slackAnswer: { status: number; body: string };
let slackConnectionId: string;

beforeAll(async () => {
  world = await openRunnerWorld();
  slack = await startLocalServer((_request, response) => {
    response.writeHead(slackAnswer.status, { 'content-type': 'text/html' }).end(slackAnswer.body);
  });
  const [connection] = await world.db
    .insert(connections)
    .values({
      companyId: world.company.companyId,
      name: 'Alerts channel',
      type: 'slack',
      settings: { mode: 'webhook' },
      secretsEnc: sealSecrets(world.secrets, { webhookUrl: `${slack.url}${WEBHOOK_PATH}` }),
    })
    .returning({ id: connections.id });
  slackConnectionId = connection.id;
  runner = world.runner({
    config: { publicUrl: CONSOLE_URL, port: 8080, dataDir: os.tmpdir() },
    slack: { http: { ...TEST_HTTP, maxTries: 1 } },
  });
  await runner.start();
});

beforeEach(() => {
  slackAnswer = { status: 200, body: 'ok' };
  slack.requests.length = 0;
});

afterAll(async () => {
  await world?.close();
  await slack?.close();
});

const failing = (message: string) =>
  world.tasks.define(async () => {
    throw new Error(message);
  });

const notificationsOf = (userId: string) =>
  world.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.companyId, world.company.companyId), eq(notifications.userId, userId)));

const mailsAbout = (subject: string) => world.db.select().from(mailOutbox).where(eq(mailOutbox.subject, subject));

async function insertUser(email: string): Promise<string> {
  const [user] = await world.db
    .insert(users)
    .values({
      companyId: world.company.companyId,
      email,
      firstName: 'Otto',
      lastName: 'Owner',
      status: 'active',
      roleId: world.company.memberRoleId,
    })
    .returning({ id: users.id });
  return user.id;
}

describe('a failed run', () => {
  it('notifies its user in the console, posts to Slack and mails the addresses the workflow names', async () => {
    const name = 'Load orders';
    const workflowId = await insertWorkflow(world, {
      name,
      taskIds: [failing('connection to the warehouse was refused')],
      notifyOnFailure: { inApp: true, slackConnectionId, emails: ['ops@acme.test', 'lead@acme.test'] },
    });

    const runId = await runner.enqueue({
      companyId: world.company.companyId,
      workflowId,
      trigger: 'manual',
      userId: world.company.adminUserId,
    });
    const run = await runReaches(world, runId, 'failed');
    const error = 'Step "Step 1" failed: connection to the warehouse was refused';
    expect(run.error).toBe(error);

    const [notice] = await eventually(async () => {
      const found = (await notificationsOf(world.company.adminUserId)).filter((n) => n.link === `/job-runs/${runId}/show`);
      return found.length > 0 && found;
    }, 'the notification');
    expect(notice).toMatchObject({ type: 'job_failed', title: `Workflow "${name}" failed`, message: error, status: 'unread' });

    const mails = await eventually(async () => {
      const found = await mailsAbout(`Workflow "${name}" failed`);
      return found.length === 2 && found;
    }, 'the two mails');
    expect(mails.map((mail) => mail.toAddress).sort()).toEqual(['lead@acme.test', 'ops@acme.test']);
    for (const mail of mails) {
      expect(mail).toMatchObject({ kind: 'job_failed', status: 'stored', companyId: world.company.companyId });
      expect(mail.text).toContain(`The run of the workflow "${name}" failed: ${error}`);
      expect(mail.text).toContain(`Open the run: ${CONSOLE_URL}/job-runs/${runId}/show`);
    }

    await eventually(async () => slack.requests.length === 1, 'the Slack message');
    const [posted] = slack.requests;
    expect(posted).toMatchObject({ method: 'POST', path: WEBHOOK_PATH });
    const text = (JSON.parse(posted.body.toString()) as { text: string }).text;
    expect(text).toContain(`Workflow "${name}" failed`);
    expect(text).toContain(error);
    expect(text).toContain(`${CONSOLE_URL}/job-runs/${runId}/show`);
  });

  it('of a schedule notifies the workflow’s creator; a timed-out run says it timed out', async () => {
    const ownerId = await insertUser(`owner-${crypto.randomBytes(3).toString('hex')}@acme.test`);
    const slow = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(gate(), context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, { name: 'Hourly sync', taskIds: [slow], timeoutMinutes: 1, createdBy: ownerId });

    const runId = await runner.enqueue({ companyId: world.company.companyId, workflowId, trigger: 'schedule', userId: null });
    await runReaches(world, runId, 'timed_out');

    const [notice] = await eventually(async () => {
      const found = await notificationsOf(ownerId);
      return found.length > 0 && found;
    }, 'the owner’s notification');
    expect(notice).toMatchObject({
      title: 'Workflow "Hourly sync" timed out',
      message: 'The run took longer than its time limit of 1 minute',
      link: `/job-runs/${runId}/show`,
    });
  });

  it('that will be retried does not notify; its last attempt does', async () => {
    const name = `Flaky ${crypto.randomBytes(3).toString('hex')}`;
    const workflowId = await insertWorkflow(world, {
      name,
      taskIds: [failing('deadlock detected')],
      maxRetries: 1,
      retryBackoffSeconds: 10,
      notifyOnFailure: { inApp: true, emails: ['ops@acme.test'] },
    });
    await runner.enqueue({ companyId: world.company.companyId, workflowId, trigger: 'manual', userId: world.company.adminUserId });

    const runs = await eventually(async () => {
      const all = await runsOf(world, workflowId);
      return all.length === 2 && all[1].status === 'failed' && all;
    }, 'both attempts to fail');
    const mails = await eventually(async () => {
      const found = await mailsAbout(`Workflow "${name}" failed`);
      return found.length > 0 && found;
    }, 'the mail of the last attempt');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`(attempt 2 of 2) failed`);
    expect(mails[0].text).toContain(`/job-runs/${runs[1].id}/show`);
    const notices = (await notificationsOf(world.company.adminUserId)).filter((n) => n.title === `Workflow "${name}" failed`);
    expect(notices.map((n) => n.link)).toEqual([`/job-runs/${runs[1].id}/show`]);
  });

  it('without in-app notices asked for leaves the console quiet', async () => {
    const name = `Quiet ${crypto.randomBytes(3).toString('hex')}`;
    const workflowId = await insertWorkflow(world, { name, taskIds: [failing('nope')], notifyOnFailure: { inApp: false } });
    const runId = await runner.enqueue({
      companyId: world.company.companyId,
      workflowId,
      trigger: 'manual',
      userId: world.company.adminUserId,
    });
    await runReaches(world, runId, 'failed');
    await runner.recover();
    expect((await notificationsOf(world.company.adminUserId)).filter((n) => n.title.includes(name))).toEqual([]);
  });
});

describe('a notice that cannot be sent', () => {
  it('is written in the run’s log, and the run stays failed with its own error', async () => {
    slackAnswer = { status: 404, body: 'no_service' };
    const smtpPort = await closedPort();
    const unreachableMail = createMailer(world.db, {
      smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
      from: 'DataOps Console <no-reply@dataops.test>',
    });
    const noisy = world.runner({ mailer: unreachableMail, slack: { http: { ...TEST_HTTP, maxTries: 1 } } });
    const name = `Unlucky ${crypto.randomBytes(3).toString('hex')}`;
    const workflowId = await insertWorkflow(world, {
      name,
      taskIds: [failing('disk full')],
      notifyOnFailure: { inApp: true, slackConnectionId, emails: ['ops@acme.test'] },
    });
    // The server's runner does not take it: the notices go through this runner's mailer.
    await runner.stop();
    try {
      await noisy.start();
      const runId = await noisy.enqueue({
        companyId: world.company.companyId,
        workflowId,
        trigger: 'manual',
        userId: world.company.adminUserId,
      });

      const run = await eventually(async () => {
        const found = await runReaches(world, runId, 'failed');
        return /could not be sent/.test(found.steps[0].log) && found.steps[0].log.includes('to ops@acme.test') && found;
      }, 'the notices’ failures in the log');
      expect(run.status).toBe('failed');
      expect(run.error).toBe('Step "Step 1" failed: disk full');
      expect(run.steps[0].log).toMatch(/The Slack message about this failure could not be sent: Slack: no_service/);
      expect(run.steps[0].log).toMatch(/The mail about this failure to ops@acme\.test could not be sent: .*ECONNREFUSED/);
      // The console's own notice still went out.
      expect((await notificationsOf(world.company.adminUserId)).some((n) => n.link === `/job-runs/${runId}/show`)).toBe(true);
    } finally {
      await noisy.stop();
      await runner.start();
    }
  });
});

describe('a run that does not fail', () => {
  it('sends nothing when it is canceled', async () => {
    const name = `Canceled ${crypto.randomBytes(3).toString('hex')}`;
    const hold = world.tasks.define(async (_task, context) => {
      await waitUnlessStopped(gate(), context.signal);
      return {};
    });
    const workflowId = await insertWorkflow(world, {
      name,
      taskIds: [hold],
      notifyOnFailure: { inApp: true, slackConnectionId, emails: ['ops@acme.test'] },
    });
    const runId = await runner.enqueue({
      companyId: world.company.companyId,
      workflowId,
      trigger: 'manual',
      userId: world.company.adminUserId,
    });
    await runReaches(world, runId, 'running');
    await runner.cancel(world.company.companyId, runId);
    await runReaches(world, runId, 'canceled');
    await runner.recover();

    expect(slack.requests).toEqual([]);
    expect(await mailsAbout(`Workflow "${name}" failed`)).toEqual([]);
    expect((await notificationsOf(world.company.adminUserId)).filter((n) => n.title.includes(name))).toEqual([]);
  });
});
