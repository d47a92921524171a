import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Where browsers report what the console's Content-Security-Policy blocked (its `report-uri`):
 * each report is written to the server's log, so an operator sees a script, style or connection
 * the policy stopped — an extension, an injected script, or a console change that needs the
 * policy widened (docs/security.md). Public, as browsers send reports without credentials.
 *
 * A page in a loop of violations sends many: each address may have REPORTS_PER_MINUTE logged a
 * minute, and the same report is logged once a minute; the rest are answered alike and dropped.
 */
const REPORTS_PER_MINUTE = 30;
const MINUTE_MS = 60_000;
/** Reports are small; a body bigger than this is not one. */
const REPORT_BODY_LIMIT = 16 * 1024;
const REMEMBERED_MAX = 5_000;

/** The fields of a report (`application/csp-report`, CSP level 2); everything else is ignored. */
const reportFields = z
  .object({
    'document-uri': z.string().max(2048).optional(),
    'violated-directive': z.string().max(512).optional(),
    'effective-directive': z.string().max(512).optional(),
    'blocked-uri': z.string().max(2048).optional(),
    'source-file': z.string().max(2048).optional(),
    'line-number': z.number().int().optional(),
    'column-number': z.number().int().optional(),
    disposition: z.string().max(32).optional(),
  })
  .passthrough();
const reportBody = z.object({ 'csp-report': reportFields }).passthrough();

export const CSP_REPORT_PATH = '/csp-reports';

export async function cspReportRoutes(app: FastifyInstance) {
  const perAddress = new Map<string, { count: number; since: number }>();
  const seen = new Map<string, number>();
  const forgetOld = (now: number) => {
    if (perAddress.size > REMEMBERED_MAX) perAddress.clear();
    if (seen.size > REMEMBERED_MAX) for (const [text, at] of seen) if (now - at >= MINUTE_MS) seen.delete(text);
    if (seen.size > REMEMBERED_MAX) seen.clear();
  };

  app.addContentTypeParser('application/csp-report', { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('The report is not JSON'), { statusCode: 400 }), undefined);
    }
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    CSP_REPORT_PATH,
    {
      bodyLimit: REPORT_BODY_LIMIT,
      config: { public: true, apiKeys: false },
      schema: { summary: "A browser's report of what the console's Content-Security-Policy blocked", hide: true, body: reportBody },
    },
    async (request, reply) => {
      const now = Date.now();
      forgetOld(now);
      const address = perAddress.get(request.ip);
      const window = !address || now - address.since >= MINUTE_MS ? { count: 0, since: now } : address;
      window.count += 1;
      perAddress.set(request.ip, window);
      const report = request.body['csp-report'];
      const summary = {
        directive: report['effective-directive'] ?? report['violated-directive'],
        blocked: report['blocked-uri'],
        page: pathOf(report['document-uri']),
        source: report['source-file']
          ? `${report['source-file']}:${report['line-number'] ?? '?'}:${report['column-number'] ?? '?'}`
          : undefined,
        disposition: report.disposition,
      };
      const text = JSON.stringify(summary);
      const repeated = now - (seen.get(text) ?? -Infinity) < MINUTE_MS;
      if (window.count <= REPORTS_PER_MINUTE && !repeated) {
        seen.set(text, now);
        request.log.warn({ cspViolation: summary, ip: request.ip }, 'Content-Security-Policy violation reported by a browser');
      }
      return reply.code(204).send();
    },
  );
}

/** The page's path only: a query string may hold what should not be in a log (a reset token). */
function pathOf(uri: string | undefined): string | undefined {
  if (!uri) return undefined;
  try {
    return new URL(uri).pathname;
  } catch {
    return undefined;
  }
}
