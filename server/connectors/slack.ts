import { callService, callServiceJson, secureBaseUrl, serviceUrl, serviceWords, type HttpOptions, type HttpService } from './http';
import { checkedSettings, ConnectorError, type ConnectionConfig, type Connector, type Endpoint } from './types';

/**
 * The `slack` type: messages to Slack, by an incoming webhook (one fixed channel) or by a bot
 * token (any channel the bot is in, through the Web API). `sendSlackMessage` is how the product
 * tells people of failures; the connector tests the connection and lists its channels.
 */

export type SlackSettings =
  { mode: 'webhook'; webhookUrl: URL } | { mode: 'bot'; botToken: string; channel: string | undefined; apiUrl: URL };

export interface SlackOptions {
  http: HttpOptions;
}

export interface SlackMessage {
  text: string;
  /** A channel id or #name; a bot's default channel when left out. A webhook always posts to its own. */
  channel?: string;
}

export function slackSettings(config: ConnectionConfig): SlackSettings {
  const { settings, secrets } = checkedSettings(config, 'slack');
  if (settings.mode === 'bot') {
    const channel = String(settings.channel ?? '').trim();
    return { mode: 'bot', botToken: secrets.botToken!, channel: channel || undefined, apiUrl: secureBaseUrl(settings.apiUrl, 'apiUrl') };
  }
  return { mode: 'webhook', webhookUrl: secureBaseUrl(secrets.webhookUrl, 'webhookUrl') };
}

export const CONNECTION_TEST_MESSAGE = 'DataOps Console: connection test';

/** Posts a message; answers where it went (a bot's channel and message timestamp). */
export async function sendSlackMessage(
  config: ConnectionConfig,
  message: SlackMessage,
  options: SlackOptions,
): Promise<{ channel?: string; ts?: string }> {
  const settings = slackSettings(config);
  if (settings.mode === 'webhook') {
    await postToWebhook(settings.webhookUrl, message.text, options);
    return {};
  }
  const channel = message.channel ?? settings.channel;
  if (!channel) throw new ConnectorError('channel: no channel was given and the connection has no default channel', 'invalid');
  // Posting is not repeatable: a 5xx after Slack posted the message would post it twice.
  const posted = await callSlackApi<{ channel: string; ts: string }>(
    settings,
    'chat.postMessage',
    { channel, text: message.text },
    options,
    { repeatable: false },
  );
  return { channel: posted.channel, ts: posted.ts };
}

export function openSlackConnector(config: ConnectionConfig, options: SlackOptions): Connector {
  const settings = slackSettings(config);
  return {
    async test() {
      const started = performance.now();
      if (settings.mode === 'webhook') {
        await postToWebhook(settings.webhookUrl, CONNECTION_TEST_MESSAGE, options);
        return { latencyMs: Math.round(performance.now() - started), detail: 'The webhook accepted a test message' };
      }
      const identity = await callSlackApi<{ team?: string; user?: string }>(settings, 'auth.test', {}, options, { repeatable: true });
      return { latencyMs: Math.round(performance.now() - started), detail: `Team ${identity.team ?? '?'}, user ${identity.user ?? '?'}` };
    },

    async endpoints(): Promise<Endpoint[]> {
      if (settings.mode === 'webhook') return [{ id: 'webhook', name: 'Webhook channel', kind: 'channel' }];
      const channels: Endpoint[] = [];
      let cursor = '';
      do {
        const page = await callSlackApi<ChannelPage>(
          settings,
          'conversations.list',
          { types: 'public_channel,private_channel', exclude_archived: 'true', limit: '200', ...(cursor ? { cursor } : {}) },
          options,
          { repeatable: true },
        );
        for (const channel of page.channels ?? []) {
          channels.push({ id: channel.id, name: `#${channel.name}`, kind: 'channel', group: channel.is_private ? 'private' : 'public' });
        }
        cursor = page.response_metadata?.next_cursor ?? '';
      } while (cursor && channels.length < MAX_CHANNELS);
      return channels;
    },

    async close() {},
  };
}

/** A workspace may hold more channels than a person can pick from; the list stops here. */
const MAX_CHANNELS = 10_000;

interface ChannelPage {
  channels?: Array<{ id: string; name: string; is_private?: boolean }>;
  response_metadata?: { next_cursor?: string };
}

/** A webhook answers `ok`, or a short code of what is wrong (`invalid_payload`, `no_service`, `channel_is_archived`): nothing else it says is shown. */
const SLACK_CODE = /^[a-z][a-z0-9_]{0,79}$/;
const webhookCode = (body: string) => (SLACK_CODE.test(body.trim()) ? body.trim() : undefined);
const SLACK_WEBHOOK: HttpService = { name: 'Slack', errorText: webhookCode };
const SLACK_API: HttpService = { name: 'Slack', errorText: (body) => slackErrorCode(body) };

/** A webhook posts every time it is called, so a 5xx is not followed by a second call: the message may be in the channel already. */
async function postToWebhook(url: URL, text: string, options: SlackOptions): Promise<void> {
  const answer = await callService(SLACK_WEBHOOK, url, { method: 'POST', body: { text } }, options.http);
  const said = answer.text.trim();
  if (said !== 'ok')
    throw new ConnectorError(`Slack: ${webhookCode(said) ?? 'the webhook did not answer "ok", as a Slack webhook does'}`, 'failed');
}

/** Errors that mean the token is wrong or lacks a permission. */
const AUTH_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  'no_permission',
  'missing_scope',
  'not_allowed_token_type',
]);
const NOT_FOUND_ERRORS = new Set(['channel_not_found', 'user_not_found']);

interface SlackAnswer {
  ok: boolean;
  error?: string;
  needed?: string;
}

/**
 * A Web API method, called as Slack documents (form-encoded POST, bearer token); `{ ok: false,
 * error }` becomes a ConnectorError. Every method is a POST, so each caller says whether it may
 * be sent again after a 5xx: a read may, a message may not.
 */
async function callSlackApi<T>(
  settings: Extract<SlackSettings, { mode: 'bot' }>,
  method: string,
  params: Record<string, string>,
  options: SlackOptions,
  { repeatable }: { repeatable: boolean },
): Promise<T> {
  const answer = await callServiceJson<SlackAnswer & T>(
    SLACK_API,
    serviceUrl(settings.apiUrl, `/${method}`),
    {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.botToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
      idempotent: repeatable,
    },
    options.http,
  );
  if (!answer.ok) {
    const code = serviceWords(typeof answer.error === 'string' ? answer.error : undefined) ?? 'unknown_error';
    const needed =
      typeof answer.needed === 'string' && SLACK_CODE.test(answer.needed.replace(/,/g, '_')) ? ` (needed: ${answer.needed})` : '';
    throw new ConnectorError(
      `Slack: ${code}${needed}`,
      AUTH_ERRORS.has(code) ? 'auth' : NOT_FOUND_ERRORS.has(code) ? 'not_found' : 'failed',
    );
  }
  return answer;
}

function slackErrorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as SlackAnswer).error;
  } catch {
    return undefined;
  }
}
