import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The headers every answer carries, API and console alike, and the CORS rules. Why each one is
 * what it is: docs/security.md.
 */
export interface SecurityHeaderSettings {
  /** Exact origins (`https://admin.example.com`) allowed to call the API from a browser; none by default. */
  corsOrigins: readonly string[];
  /** Origins the console's page may also load scripts and images from and connect to (analytics, an API elsewhere). */
  consoleExtraOrigins: readonly string[];
  /** Where browsers report what the console's policy blocked (server/routes/csp-reports.ts). */
  reportUri?: string;
}

/**
 * The console's page: its own scripts only. Style elements need the page's nonce, which the
 * console hands to emotion (MUI writes its styles as <style> elements at run time); style
 * attributes (charts, MUI's popper) are allowed. A page answered without a nonce gets no inline
 * styles at all.
 */
export function consoleContentSecurityPolicy(extraOrigins: readonly string[] = [], reportUri?: string, styleNonce?: string): string {
  const extra = extraOrigins.length > 0 ? ` ${extraOrigins.join(' ')}` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${extra}`,
    styleNonce ? `style-src 'self' 'nonce-${styleNonce}'` : "style-src 'self'",
    ...(styleNonce ? ["style-src-attr 'unsafe-inline'"] : []),
    `img-src 'self' data: blob:${extra}`,
    `connect-src 'self'${extra}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(reportUri ? [`report-uri ${reportUri}`] : []),
  ].join('; ');
}

/** Everything else (JSON, assets, files): nothing may run or load if it is ever opened as a page. */
export const RESOURCE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';
/** A year; no includeSubDomains, which would bind every other host of the operator's domain too. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** The request headers the console and API clients send: the credentials travel in headers, never in cookies. */
const CORS_REQUEST_HEADERS = 'accept, content-type, x-access-token, x-api-key';
const CORS_EXPOSED_HEADERS = 'content-disposition, retry-after';
const CORS_PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Registers the hooks on the root instance, before any route, so that every answer passes them:
 * the API's, the console's files, the not-found and error answers.
 */
export function registerSecurityHeaders(app: FastifyInstance, settings: SecurityHeaderSettings): void {
  const allowedOrigins = new Set(settings.corsOrigins);
  const consolePolicy = consoleContentSecurityPolicy(settings.consoleExtraOrigins, settings.reportUri);
  // Opened to other origins, the logo and avatars may be shown by a console served from one of them.
  const resourcePolicy = allowedOrigins.size > 0 ? 'cross-origin' : 'same-origin';

  app.addHook('onRequest', async (request, reply) => {
    if (allowedOrigins.size === 0) return;
    const origin = request.headers.origin;
    if (!origin || !allowedOrigins.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', CORS_EXPOSED_HEADERS);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .code(204)
        .header('access-control-allow-methods', CORS_METHODS)
        .header('access-control-allow-headers', CORS_REQUEST_HEADERS)
        .header('access-control-max-age', String(CORS_PREFLIGHT_MAX_AGE_SECONDS))
        .send();
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    setContentSecurityPolicy(reply, consolePolicy);
    setIfAbsent(reply, 'x-content-type-options', 'nosniff');
    setIfAbsent(reply, 'x-frame-options', 'DENY');
    setIfAbsent(reply, 'referrer-policy', 'no-referrer');
    setIfAbsent(reply, 'cross-origin-opener-policy', 'same-origin');
    setIfAbsent(reply, 'cross-origin-resource-policy', resourcePolicy);
    setIfAbsent(reply, 'permissions-policy', PERMISSIONS_POLICY);
    if (cameOverHttps(request)) setIfAbsent(reply, 'strict-transport-security', STRICT_TRANSPORT_SECURITY);
    // Whether an answer allows an origin depends on the origin: caches must keep them apart.
    if (allowedOrigins.size > 0) addVary(reply, 'Origin');
    return payload;
  });
}

/**
 * A route that set its own policy keeps it (the SVG logo's sandbox). A 304 carries none: the
 * browser keeps the policy stored with the answer it revalidates, and must not swap the page's
 * policy for another.
 */
function setContentSecurityPolicy(reply: FastifyReply, consolePolicy: string): void {
  if (reply.hasHeader('content-security-policy') || reply.statusCode === 304) return;
  const type = String(reply.getHeader('content-type') ?? '').toLowerCase();
  reply.header('content-security-policy', type.startsWith('text/html') ? consolePolicy : RESOURCE_CONTENT_SECURITY_POLICY);
}

function addVary(reply: FastifyReply, name: string): void {
  const current = String(reply.getHeader('vary') ?? '');
  const names = current.split(',').map((part) => part.trim().toLowerCase());
  if (!names.includes(name.toLowerCase())) reply.header('vary', current ? `${current}, ${name}` : name);
}

function setIfAbsent(reply: FastifyReply, name: string, value: string): void {
  if (!reply.hasHeader(name)) reply.header(name, value);
}

/** `request.protocol` reads X-Forwarded-Proto only when TRUST_PROXY is on, so a client cannot claim HTTPS. */
function cameOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}
