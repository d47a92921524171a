import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';

/**
 * One log line per request, and the request id that ties it to the caller's own logs.
 *
 * The id comes from the caller's `x-request-id` when it is a plain token (a proxy or a client
 * that already logs one), else it is made here; every answer carries it back. The line says who
 * called (company and user, once the guard knows them), what (method, route pattern and the URL
 * with its secrets scrubbed), how it ended and how long it took. Credentials never reach the log:
 * headers that carry them are redacted wherever a line would include them, query values that
 * look like secrets are replaced, and bodies are never logged.
 */

export const REQUEST_ID_HEADER = 'x-request-id';

/** Letters, digits and the punctuation of uuids, ULIDs, trace ids and base64: nothing that could forge a log line or a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=/-]{1,128}$/;

/** The caller's request id when it is a sane token, else a new one. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  if (typeof given === 'string' && SANE_REQUEST_ID.test(given)) return given;
  return crypto.randomUUID();
}

/** Headers that carry credentials: session tokens, API keys, basic or bearer credentials, cookies. */
const SECRET_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-access-token', 'x-api-key'];

/** Fields of a body or an object that hold a credential, wherever a line would include one. */
const SECRET_FIELDS = [
  'password',
  'oldPassword',
  'newPassword',
  'currentPassword',
  'temporaryPassword',
  'token',
  'accessToken',
  'refreshToken',
  'resetPasswordToken',
  'defaultPasswordToken',
  'clientId',
  'otp',
  'recoveryCode',
  'secret',
  'apiKey',
];

const REDACTED = '[redacted]';

const REDACT_PATHS = [
  ...SECRET_HEADERS.flatMap((header) => [`req.headers["${header}"]`, `res.headers["${header}"]`, `headers["${header}"]`]),
  ...SECRET_FIELDS.flatMap((field) => [`body.${field}`, `req.body.${field}`, `*.${field}`]),
];

/**
 * Query parameters whose values are secrets: the mailed links' `?token=` (password reset,
 * invitation), and whatever else a caller puts in a URL under such a name.
 */
const SECRET_QUERY_NAME = /token|password|passwd|secret|key|code|otp|signature|sig|auth|session|credential/i;

/** The URL as it may be logged: each secret-looking query value replaced, the rest kept. */
export function scrubUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const scrubbed = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: judge the name as written.
      }
      return equals >= 0 && SECRET_QUERY_NAME.test(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${scrubbed}`;
}

/** What a logged request says of itself (Fastify's own serializer would log the raw URL). */
function requestSerializer(request: { method?: string; url?: string; hostname?: string; host?: string; ip?: string }) {
  return {
    method: request.method,
    url: scrubUrl(request.url ?? ''),
    host: request.host ?? request.hostname,
    remoteAddress: request.ip,
  };
}

type LoggerSetting = FastifyServerOptions['logger'];
type ServerLogOptions = Pick<FastifyServerOptions, 'logger' | 'childLoggerFactory' | 'logController' | 'genReqId'>;

/**
 * The server's logging options around the given logger setting. Requests log at the given level
 * (`info` by default); the server's own logger, which only speaks at start-up and on trouble, logs
 * from `warn` at that level, so the default start prints no JSON before the server's own
 * greeting. Any other level applies to both.
 */
export function serverLogOptions(logger: LoggerSetting): ServerLogOptions {
  // Fastify's own two lines per request (received, completed) give way to the one line below.
  const base: ServerLogOptions = { genReqId: requestIdOf, logController: new LogController({ disableRequestLogging: true }) };
  if (!logger) return { ...base, logger: false };
  const given = typeof logger === 'object' ? logger : {};
  const requestLevel = given.level ?? 'info';
  return {
    ...base,
    logger: {
      ...given,
      level: requestLevel === 'info' ? 'warn' : requestLevel,
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { ...given.serializers, req: requestSerializer },
    },
    // A route's own log level still wins; otherwise a request logs at the configured level, whatever the server's own logger does.
    childLoggerFactory: (parent, bindings, options) =>
      parent.child(bindings, { ...options, level: options.level ?? requestLevel }) as FastifyBaseLogger,
  };
}

/**
 * Gives every answer (API, console files, not-found and errors) the request's id, and, when the
 * server logs, writes the request's line once it is answered.
 */
export function registerRequestLog(app: FastifyInstance, options: { logRequests: boolean }): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  if (!options.logRequests) return;
  app.addHook('onResponse', async (request, reply) => {
    const auth = request.auth;
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        url: scrubUrl(request.url),
        statusCode: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 10) / 10,
        companyId: auth?.companyId ?? null,
        userId: auth?.userId ?? null,
        ...(auth?.apiKeyId ? { apiKeyId: auth.apiKeyId } : {}),
        ip: request.ip,
      },
      'request',
    );
  });
}
