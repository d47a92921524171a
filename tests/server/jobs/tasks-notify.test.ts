import crypto from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskExecutors } from '../../../server/jobs/tasks';
import { createMailer } from '../../../server/mail/mailer';
import { closedPort } from '../connectors/db-helpers';
import { startLocalServer, type LocalServer, type ReceivedRequest } from '../connectors/fixtures-remote/local-server';
import { createTestServer, type TestServer } from '../harness';
import { mailsTo, readLastMail, signInAdmin } from '../helpers';
import { createConnection, createPair, createWorkflow, failureOf, recordingContext, runTask } from './tasks-helpers';

/**
 * The notify task against a local HTTP server standing for a Slack incoming webhook, and the
 * server's mailer (its outbox, or an SMTP server that does not answer).
 */

let server: TestServer;
let token: string;
let slack: LocalServer;
/** What the webhook answers next: Slack says `ok`, or a short code with an error status. */
let webhookAnswer: { status: number; body: string } = { status: 200, body: 'ok' };
let workflow: Awaited<ReturnType<typeof createWorkflow>>;
let alertsId: string;

const notifyTask = (fields: Record<string, unknown>) => ({
  id: `notify-${crypto.randomBytes(3).toString('hex')}`,
  name: 'Tell the team',
  type: 'notify' as const,
  ...fields,
});
const posted = () => slack.requests.map((request) => JSON.parse(request.body.toString()) as { text: string });

beforeAll(async () => {
  slack = await startLocalServer((_request: ReceivedRequest, response: ServerResponse) => {
    response.writeHead(webhookAnswer.status, { 'content-type': 'text/plain' }).end(webhookAnswer.body);
  });
  server = await createTestServer();
  token = (await signInAdmin(server)).accessToken!;
  alertsId = await createConnection(server, token, {
    name: 'Alerts',
    type: 'slack',
    settings: { mode: 'webhook', webhookUrl: `${slack.url}/services/T000/B000/secret` },
    isSource: false,
    isDestination: false,
  });
  const shop = `shop-${crypto.randomBytes(4).toString('hex')}`;
  workflow = await createWorkflow(server, {
    name: 'Nightly load',
    pairId: await createPair(
      server,
      token,
      await createConnection(server, token, { name: 'Shop', type: 'embedded', settings: { database: shop } }),
      await createConnection(server, token, { name: 'Warehouse', type: 'embedded', settings: { database: `${shop}-w` } }),
    ),
  });
});

afterAll(async () => {
  await server?.close();
  await slack?.close();
});

describe('the notify task', () => {
  it('posts the message with the workflow’s name and a link to the run to Slack, and mails each address', async () => {
    webhookAnswer = { status: 200, body: 'ok' };
    slack.requests.length = 0;
    const context = recordingContext(server, workflow);
    const task = notifyTask({
      message: 'The nightly load is done.\nFigures are ready.',
      slackConnectionId: alertsId,
      emails: ['ops@acme.test', 'cfo@acme.test'],
    });
    expect(await runTask(server, task, context)).toEqual({});

    const link = `http://localhost:${server.config.port}/job-runs/${workflow.runId}/show`;
    const text = `The nightly load is done.\nFigures are ready.\n\nWorkflow "Nightly load", run ${link}`;
    expect(slack.requests.map((request) => request.path)).toEqual(['/services/T000/B000/secret']);
    expect(posted()).toEqual([{ text }]);
    for (const to of ['ops@acme.test', 'cfo@acme.test']) {
      expect(await readLastMail(server.db, to)).toMatchObject({
        subject: 'Nightly load: The nightly load is done.',
        text,
        kind: 'workflow_notification',
        status: 'stored',
        companyId: server.company.companyId,
      });
    }
    expect((await readLastMail(server.db, 'ops@acme.test')).html).toContain(`<a href="${link}">`);
    expect(context.lines).toEqual([
      'Posted to Slack through "Alerts"',
      'Mailed ops@acme.test (kept in the mail outbox: the server sends no mail)',
      'Mailed cfo@acme.test (kept in the mail outbox: the server sends no mail)',
    ]);
  });

  it('fails with Slack’s reason when the webhook refuses the message, and still mails', async () => {
    webhookAnswer = { status: 404, body: 'no_service' };
    const message = await failureOf(
      runTask(
        server,
        notifyTask({ message: 'Refused', slackConnectionId: alertsId, emails: ['desk@acme.test'] }),
        recordingContext(server, workflow),
      ),
    );
    expect(message).toBe('The notification was not delivered everywhere: Slack: no_service (HTTP 404)');
    expect(await mailsTo(server.db, 'desk@acme.test')).toHaveLength(1);
  });

  it('fails naming each address a mail could not be sent to, with the mail server’s reason; links go to PUBLIC_URL', async () => {
    const { db, secrets, connectors } = server.app.ctx;
    const unreachable = createMailer(db, { smtpUrl: `smtp://127.0.0.1:${await closedPort()}`, from: 'console@acme.test' });
    const executors = createTaskExecutors({
      db,
      secrets,
      connectors,
      mailer: unreachable,
      config: { ...server.config, publicUrl: 'https://console.acme.test' },
    });
    const message = await failureOf(
      executors.notify(notifyTask({ message: 'Nobody hears this', emails: ['night@acme.test'] }), recordingContext(server, workflow)),
    );
    expect(message).toMatch(/^The notification was not delivered everywhere: mail to night@acme\.test: .*ECONNREFUSED/);
    expect(await readLastMail(server.db, 'night@acme.test')).toMatchObject({
      status: 'failed',
      text: expect.stringContaining(`run https://console.acme.test/job-runs/${workflow.runId}/show`),
    });
  });
});
