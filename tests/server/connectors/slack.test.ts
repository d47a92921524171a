import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSlackConnector, sendSlackMessage } from '../../../server/connectors/slack';
import type { ConnectionConfig } from '../../../server/connectors/types';
import { sendJson, startLocalServer, type LocalServer, type ReceivedRequest } from './fixtures-remote/local-server';
import { connectorFailure as failure, TEST_COMPANY_ID, TEST_HTTP } from './test-context';

/**
 * Slack on this machine: incoming webhooks (answering `ok`, or a plain-text error code with its
 * HTTP status) and the Web API methods auth.test, conversations.list (cursor paging) and
 * chat.postMessage, which answer `{ ok: false, error }` with HTTP 200 when something is wrong, as
 * Slack's documentation describes.
 */

const BOT_TOKEN = 'xoxb-1111-2222-good';
const WEBHOOK_PATH = '/services/T0001/B0001/abcdEFGH';
let slack: LocalServer;
const posted: Array<{ channel?: string; text: string }> = [];
/** Per path, answers to give before the real one (a 429, a 503). */
const interruptions = new Map<string, Array<{ status: number; headers?: Record<string, string>; body: string }>>();

const CHANNELS = [
  { id: 'C001', name: 'general', is_private: false },
  { id: 'C002', name: 'data-alerts', is_private: false },
  { id: 'G003', name: 'finance-private', is_private: true },
  { id: 'C004', name: 'random', is_private: false },
  { id: 'C005', name: 'ops', is_private: false },
];

function answerSlack(request: ReceivedRequest, response: ServerResponse): void {
  const pending = interruptions.get(request.path);
  if (pending && pending.length > 0) {
    const next = pending.shift()!;
    response.writeHead(next.status, { 'content-type': 'text/plain', ...next.headers }).end(next.body);
    return;
  }
  if (request.path.startsWith('/services/')) return answerWebhook(request, response);
  if (!request.path.startsWith('/api/')) return void response.writeHead(404).end();
  if (request.headers.authorization !== `Bearer ${BOT_TOKEN}`) return sendJson(response, 200, { ok: false, error: 'invalid_auth' });
  const params = new URLSearchParams(request.body.toString());
  switch (request.path) {
    case '/api/auth.test':
      return sendJson(response, 200, {
        ok: true,
        url: 'https://acme.slack.com/',
        team: 'Acme',
        user: 'dataops-bot',
        team_id: 'T0001',
        user_id: 'U0001',
        bot_id: 'B0001',
      });
    case '/api/conversations.list': {
      // Slack may answer fewer than `limit`; two a page here makes the cursor visible.
      const start = params.get('cursor') ? Number(Buffer.from(params.get('cursor')!, 'base64').toString()) : 0;
      const channels = CHANNELS.filter((channel) =>
        params
          .get('types')!
          .split(',')
          .includes(channel.is_private ? 'private_channel' : 'public_channel'),
      );
      const next = start + 2 < channels.length ? Buffer.from(String(start + 2)).toString('base64') : '';
      return sendJson(response, 200, { ok: true, channels: channels.slice(start, start + 2), response_metadata: { next_cursor: next } });
    }
    case '/api/chat.postMessage': {
      const channel = params.get('channel')!;
      if (!CHANNELS.some((known) => known.id === channel || `#${known.name}` === channel))
        return sendJson(response, 200, { ok: false, error: 'channel_not_found' });
      posted.push({ channel, text: params.get('text')! });
      return sendJson(response, 200, { ok: true, channel: 'C002', ts: '1718000000.000100', message: { text: params.get('text') } });
    }
    default:
      return sendJson(response, 200, { ok: false, error: 'unknown_method' });
  }
}

function answerWebhook(request: ReceivedRequest, response: ServerResponse): void {
  const text = (plain: string, status: number): void => void response.writeHead(status, { 'content-type': 'text/html' }).end(plain);
  if (request.path === '/services/T0001/B0002/archived') return text('channel_is_archived', 410);
  if (request.path !== WEBHOOK_PATH) return text('no_service', 404);
  let body: { text?: string };
  try {
    body = JSON.parse(request.body.toString()) as { text?: string };
  } catch {
    return text('invalid_payload', 400);
  }
  if (!body.text) return text('no_text', 400);
  posted.push({ text: body.text });
  text('ok', 200);
}

const webhook = (path = WEBHOOK_PATH): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'slack',
  settings: { mode: 'webhook' },
  secrets: { webhookUrl: `${slack.url}${path}` },
});
const bot = (settings: Record<string, unknown> = {}, token = BOT_TOKEN): ConnectionConfig => ({
  companyId: TEST_COMPANY_ID,
  type: 'slack',
  settings: { mode: 'bot', apiUrl: `${slack.url}/api`, channel: '#data-alerts', ...settings },
  secrets: { botToken: token },
});

beforeAll(async () => {
  slack = await startLocalServer(answerSlack);
});

afterAll(async () => {
  await slack?.close();
});

describe('an incoming webhook', () => {
  it('tests by posting a short message', async () => {
    const result = await openSlackConnector(webhook(), { http: TEST_HTTP }).test();
    expect(result.detail).toBe('The webhook accepted a test message');
    expect(posted.at(-1)).toEqual({ text: 'DataOps Console: connection test' });
    expect(slack.requests.at(-1)!.headers['content-type']).toMatch(/^application\/json/);
  });

  it("fails with Slack's own words when the webhook is wrong", async () => {
    const missing = await failure(openSlackConnector(webhook('/services/T0001/B0001/wrong'), { http: TEST_HTTP }).test());
    expect(missing.message).toBe('Slack: no_service (HTTP 404)');
    expect(missing.kind).toBe('not_found');
    expect((await failure(openSlackConnector(webhook('/services/T0001/B0002/archived'), { http: TEST_HTTP }).test())).message).toBe(
      'Slack: channel_is_archived (HTTP 410)',
    );
  });

  it('has one endpoint: the channel it posts to', async () => {
    expect(await openSlackConnector(webhook(), { http: TEST_HTTP }).endpoints()).toEqual([
      { id: 'webhook', name: 'Webhook channel', kind: 'channel' },
    ]);
  });

  it('sends a failure notification', async () => {
    expect(await sendSlackMessage(webhook(), { text: 'Table orders: 2 rules failed', channel: '#ignored' }, { http: TEST_HTTP })).toEqual(
      {},
    );
    expect(posted.at(-1)).toEqual({ text: 'Table orders: 2 rules failed' });
  });

  it('posts once when Slack answers 503, and says why it did not post again', async () => {
    interruptions.set(WEBHOOK_PATH, [{ status: 503, body: '' }]);
    const before = slack.requests.length;
    const postedBefore = posted.length;
    const error = await failure(sendSlackMessage(webhook(), { text: 'Run 44 failed' }, { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } }));
    expect(error.message).toBe('Slack: service unavailable (HTTP 503); not sent again, as Slack may have acted on it');
    expect(slack.requests.slice(before).map((request) => request.path)).toEqual([WEBHOOK_PATH]);
    expect(posted.length).toBe(postedBefore);
    // The answer Slack would have given next was never asked for.
    expect(interruptions.get(WEBHOOK_PATH)).toEqual([]);
  });

  it('posts again after a 429, which Slack answers before posting', async () => {
    interruptions.set(WEBHOOK_PATH, [{ status: 429, headers: { 'retry-after': '0' }, body: 'rate_limited' }]);
    const before = slack.requests.length;
    await sendSlackMessage(webhook(), { text: 'Run 45 failed' }, { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } });
    expect(slack.requests.slice(before)).toHaveLength(2);
    expect(posted.at(-1)).toEqual({ text: 'Run 45 failed' });
  });

  it('refuses a webhook URL that would send the secret in the clear', () => {
    const config: ConnectionConfig = {
      companyId: TEST_COMPANY_ID,
      type: 'slack',
      settings: { mode: 'webhook' },
      secrets: { webhookUrl: 'http://hooks.slack.com/services/T/B/X' },
    };
    expect(() => openSlackConnector(config, { http: TEST_HTTP })).toThrow('settings.webhookUrl: must be an https URL');
  });
});

describe('a bot token', () => {
  it('tests with auth.test, naming the team and the user', async () => {
    const result = await openSlackConnector(bot(), { http: TEST_HTTP }).test();
    expect(result.detail).toBe('Team Acme, user dataops-bot');
    expect(slack.requests.at(-1)!.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
  });

  it('turns invalid_auth into an auth failure', async () => {
    const error = await failure(openSlackConnector(bot({}, 'xoxb-revoked'), { http: TEST_HTTP }).test());
    expect(error.kind).toBe('auth');
    expect(error.message).toBe('Slack: invalid_auth');
  });

  it('lists the public and private channels the bot sees, cursor after cursor', async () => {
    const before = slack.requests.length;
    const channels = await openSlackConnector(bot(), { http: TEST_HTTP }).endpoints();
    expect(channels).toEqual([
      { id: 'C001', name: '#general', kind: 'channel', group: 'public' },
      { id: 'C002', name: '#data-alerts', kind: 'channel', group: 'public' },
      { id: 'G003', name: '#finance-private', kind: 'channel', group: 'private' },
      { id: 'C004', name: '#random', kind: 'channel', group: 'public' },
      { id: 'C005', name: '#ops', kind: 'channel', group: 'public' },
    ]);
    const calls = slack.requests.slice(before).map((request) => new URLSearchParams(request.body.toString()));
    expect(calls).toHaveLength(3);
    expect(calls[0]!.get('types')).toBe('public_channel,private_channel');
    expect(calls[0]!.get('exclude_archived')).toBe('true');
    expect(calls[0]!.has('cursor')).toBe(false);
    expect(calls[2]!.get('cursor')).toBeTruthy();
  });

  it('sends to the default channel, or to the one named', async () => {
    expect(await sendSlackMessage(bot(), { text: 'Run 42 failed' }, { http: TEST_HTTP })).toEqual({
      channel: 'C002',
      ts: '1718000000.000100',
    });
    expect(posted.at(-1)).toEqual({ channel: '#data-alerts', text: 'Run 42 failed' });
    await sendSlackMessage(bot(), { text: 'Run 43 failed', channel: 'C004' }, { http: TEST_HTTP });
    expect(posted.at(-1)).toEqual({ channel: 'C004', text: 'Run 43 failed' });
  });

  it('names the error code Slack gives', async () => {
    const error = await failure(sendSlackMessage(bot(), { text: 'x', channel: '#nowhere' }, { http: TEST_HTTP }));
    expect(error.message).toBe('Slack: channel_not_found');
    expect(error.kind).toBe('not_found');
    const noChannel = await failure(sendSlackMessage(bot({ channel: '' }), { text: 'x' }, { http: TEST_HTTP }));
    expect(noChannel.message).toBe('channel: no channel was given and the connection has no default channel');
  });

  it('waits as Retry-After says when rate limited, then goes on', async () => {
    interruptions.set('/api/auth.test', [{ status: 429, headers: { 'retry-after': '1' }, body: '' }]);
    const started = Date.now();
    expect((await openSlackConnector(bot(), { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } }).test()).detail).toBe(
      'Team Acme, user dataops-bot',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('tries again after a 503', async () => {
    interruptions.set('/api/conversations.list', [{ status: 503, body: 'upstream unavailable' }]);
    const channels = await openSlackConnector(bot(), { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } }).endpoints();
    expect(channels).toHaveLength(5);
  });

  it('sends chat.postMessage once when Slack answers 502, and says why', async () => {
    interruptions.set('/api/chat.postMessage', [{ status: 502, body: '' }]);
    const before = slack.requests.length;
    const postedBefore = posted.length;
    const error = await failure(sendSlackMessage(bot(), { text: 'Run 46 failed' }, { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } }));
    expect(error.message).toBe('Slack: bad gateway (HTTP 502); not sent again, as Slack may have acted on it');
    expect(slack.requests.slice(before).map((request) => request.path)).toEqual(['/api/chat.postMessage']);
    expect(posted.length).toBe(postedBefore);
  });

  it('sends chat.postMessage again after a 429', async () => {
    interruptions.set('/api/chat.postMessage', [{ status: 429, headers: { 'retry-after': '0' }, body: '' }]);
    const before = slack.requests.length;
    expect(await sendSlackMessage(bot(), { text: 'Run 47 failed' }, { http: { ...TEST_HTTP, retryBaseDelayMs: 5 } })).toEqual({
      channel: 'C002',
      ts: '1718000000.000100',
    });
    expect(slack.requests.slice(before)).toHaveLength(2);
    expect(posted.at(-1)).toEqual({ channel: '#data-alerts', text: 'Run 47 failed' });
  });

  it('reports a 429 that outlasts the tries', async () => {
    const limited = { status: 429, headers: { 'retry-after': '0' }, body: '' };
    interruptions.set('/api/auth.test', [limited, limited, limited]);
    const error = await failure(openSlackConnector(bot(), { http: { ...TEST_HTTP, retryBaseDelayMs: 20 } }).test());
    expect(error.message).toBe('Slack: too many requests (HTTP 429)');
    interruptions.clear();
  });
});
