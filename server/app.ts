import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyStatic from '@fastify/static';
import { hasZodFastifySchemaValidationErrors, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from './http/errors';
import { ConnectorError } from './connectors/types';
import { isDatabaseUnavailable } from './http/database-errors';
import { API_PREFIX, BODY_LIMIT_BYTES, type AppContext } from './platform/context';
import { answerSerializer } from './platform/answers';
import { registerEntityRoutes, type EntityModule } from './platform/entity-routes';
import { ENTITY_MODULES } from './modules';
import { registerAuthGuard } from './auth/guard';
import { registerRequestScope } from './http/request-scope';
import { registerStorableTextCheck } from './http/storable-text';
import { closeQuietConnectionsOnStop } from './http/quiet-connections';
import { apiRoutes } from './routes';
import { registerOpenApiDocument } from './apikeys/openapi-document';
import { consoleContentSecurityPolicy, registerSecurityHeaders } from './http/security-headers';
import { CSP_REPORT_PATH } from './routes/csp-reports';
import { registerRequestLog, serverLogOptions } from './http/request-log';
import { registerMetrics, type MetricsOptions } from './http/metrics';

/** What every route can reach through `app.ctx`. */
export interface BuildOptions {
  /** Entities served from their contract and repository beside those of server/modules (tests' sample entities). */
  modules?: readonly EntityModule[];
  logger?: FastifyServerOptions['logger'];
  /** Serve the built console from config.consoleDir (the server does; tests need not). */
  serveConsole?: boolean;
  /** Hold every answer against its declared schema and fail the call when it does not match (the test servers do). */
  checkAnswers?: boolean;
  /** The database pool's use, for the metrics (server/http/metrics.ts). */
  poolStats?: MetricsOptions['poolStats'];
  /** The embedded database's memory, for the metrics. */
  embeddedMemoryBytes?: MetricsOptions['embeddedMemoryBytes'];
}

export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Request ids, one line per request, credentials redacted (server/http/request-log.ts).
    ...serverLogOptions(options.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: ctx.config.trustProxy,
    // Route ids are uuids; long garbage in a path should be a 404, not a crash.
    routerOptions: { maxParamLength: 200, ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializer(options.checkAnswers ?? false));
  app.decorate('ctx', ctx);
  app.setErrorHandler(errorHandler);
  closeQuietConnectionsOnStop(app);
  registerRequestLog(app, { logRequests: Boolean(options.logger) });
  // First, on the root: every answer (API, console files, not-found and errors) carries them.
  registerSecurityHeaders(app, {
    corsOrigins: ctx.config.corsOrigins,
    consoleExtraOrigins: ctx.config.cspExtraOrigins,
    reportUri: `${API_PREFIX}${CSP_REPORT_PATH}`,
  });
  // Before the routes: the document and the API-key catalogue are collected as routes register.
  await registerOpenApiDocument(app);
  // On the root: every request is counted, whichever part of the server answers it.
  registerMetrics(app, { poolStats: options.poolStats, embeddedMemoryBytes: options.embeddedMemoryBytes });

  await app.register(
    async (api) => {
      registerAuthGuard(api);
      // Each handler runs as its caller's company: on PostgreSQL, row-level security holds it there.
      registerRequestScope(api);
      // Text PostgreSQL cannot hold (NUL, half a surrogate pair) is refused naming its field, not failed on as a 500.
      registerStorableTextCheck(api);
      await api.register(apiRoutes);
      for (const module of [...ENTITY_MODULES, ...(options.modules ?? [])]) {
        await api.register((scoped) => registerEntityRoutes(scoped, module));
      }
      api.setNotFoundHandler((request, reply) => {
        reply.code(404).send({ message: `No API route ${request.method} ${request.url.split('?')[0]}` });
      });
    },
    { prefix: API_PREFIX },
  );

  if (options.serveConsole) {
    await serveConsole(
      app,
      ctx.config.consoleDir,
      (nonce) => consoleContentSecurityPolicy(ctx.config.cspExtraOrigins, `${API_PREFIX}${CSP_REPORT_PATH}`, nonce),
      ctx.config.gaMeasurementId,
    );
  }

  return app;
}

function errorHandler(
  this: FastifyInstance,
  error: FastifyError,
  request: import('fastify').FastifyRequest,
  reply: import('fastify').FastifyReply,
) {
  if (error instanceof HttpError) {
    if (error.statusCode === 429 && typeof error.extra.retryAfterSeconds === 'number') {
      reply.header('retry-after', String(error.extra.retryAfterSeconds));
    }
    return reply.code(error.statusCode).send({ message: error.message, ...error.extra });
  }
  if (error instanceof ConnectorError) {
    // A source's own words: a setting it refuses, or a host, path or database this server does not let companies reach, is the request's fault; anything else the source's.
    return reply.code(error.kind === 'invalid' || error.kind === 'refused' ? 400 : 502).send({ message: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply.code(400).send({ message: describeValidation(error.validation, error.validationContext) });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return reply.code(413).send({ message: `The request body is too large (at most ${BODY_LIMIT_BYTES / 1024} KB)` });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return reply.code(415).send({ message: `Unsupported content type: ${request.headers['content-type'] ?? 'none'}` });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return reply.code(400).send({ message: 'The request body is empty; a JSON object was expected' });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return reply.code(400).send({ message: 'The request body is not valid JSON' });
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return reply.code(400).send({ message: 'The request body is not valid JSON' });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply.code(503).send({ message: 'The database is unavailable at the moment; please try again shortly' });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return reply.code(error.statusCode).send({ message: error.message });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ message: 'Something went wrong on the server; the error has been logged' });
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Turns zod issues into one message that names each field: "email: Invalid email address". */
function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const where = context === 'body' ? 'body' : (context ?? 'request');
  return issues
    .slice(0, 5)
    .map((issue) => {
      const field = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
      const message = issue.message ?? 'is invalid';
      if (!field) return `${where}: ${message}`;
      return `${field}: ${message}`;
    })
    .join('; ');
}

/**
 * The console's page with a fresh style nonce in it (src/shell/styleCache.ts reads it), and its
 * policy; with GA_MEASUREMENT_ID, the analytics property the console reports to
 * (providers/analytics reads it), so one build serves any deployment.
 */
function consolePage(template: string, policyFor: (nonce: string) => string, gaMeasurementId: string | undefined) {
  const at = template.indexOf('<head>');
  if (at < 0) throw new Error('The console page has no <head>');
  // The id is checked at start (server/config.ts): letters, digits and one hyphen.
  const analytics = gaMeasurementId ? `<meta name="ga-measurement-id" content="${gaMeasurementId}">` : '';
  return () => {
    const nonce = crypto.randomBytes(16).toString('base64');
    const html = `${template.slice(0, at + 6)}<meta name="csp-nonce" content="${nonce}">${analytics}${template.slice(at + 6)}`;
    return { html, policy: policyFor(nonce) };
  };
}

/** Paths monitoring tools and clients try that are never a page of the console: metrics, probes, other API versions. */
const NOT_CONSOLE_PAGES = /^\/(metrics|health|healthz|livez|ready|readyz|api)(\/|$)/;

async function serveConsole(
  app: FastifyInstance,
  consoleDir: string,
  policyFor: (nonce: string) => string,
  gaMeasurementId: string | undefined,
) {
  const indexFile = path.join(consoleDir, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn(`No built console in ${consoleDir}; run "npm run build" to serve it.`);
    return;
  }
  await app.register(fastifyStatic, {
    root: consoleDir,
    wildcard: false,
    index: false,
    // vite.config.ts writes .br and .gz beside each asset; the one the browser accepts is sent.
    preCompressed: true,
    // The page itself is answered below, with its nonce.
    allowedPath: (pathName) => pathName !== '/index.html',
    setHeaders(reply, filePath) {
      // Hashed assets never change; index.html must always be revalidated.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        reply.header('cache-control', 'no-cache');
      }
    },
  });
  const page = consolePage(fs.readFileSync(indexFile, 'utf8'), policyFor, gaMeasurementId);
  app.setNotFoundHandler((request, reply) => {
    const accept = request.headers.accept ?? '';
    const pathName = request.url.split('?')[0];
    // A scraper or a probe aimed at the wrong path must see a 404, not the console's page answered 200.
    if (NOT_CONSOLE_PAGES.test(pathName)) {
      return reply.code(404).send({ message: `Not found: ${pathName} (the API and its probes are under ${API_PREFIX})` });
    }
    if (request.method === 'GET' && !request.url.startsWith('/assets/') && (accept.includes('text/html') || accept.includes('*/*'))) {
      const { html, policy } = page();
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', policy)
        .send(html);
    }
    return reply.code(404).send({ message: `Not found: ${request.url}` });
  });
}
