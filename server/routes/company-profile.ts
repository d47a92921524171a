import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyProfileAnswer, logoAnswer } from '../../common/contract/answers/company-profile';
import { sent } from '../platform/answers';
import { HOSTNAME_PATTERN, normaliseHostname } from '../../common/hostname';
import { authenticate, requireAuth, TOKEN_HEADER } from '../auth/guard';
import { unauthorized } from '../http/errors';
import { logoVersion } from '../company/logo';
import { acceptCompanyForms } from '../company/profile-form';
import { companyProfile, logoOfCompany, logoOfHostname, updateCompanyProfile, type StoredLogo } from '../company/profile';

const TAGS = ['Company'];
export const COMPANY_SAVED_MESSAGE = 'The company profile has been saved';
export const NOTHING_TO_CHANGE_MESSAGE = 'Nothing to change';
export const NO_LOGO_MESSAGE = 'No logo';

/** An SVG logo opened on its own runs nothing and loads nothing, whatever the sanitiser missed. */
export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
const IMMUTABLE = 'public, max-age=31536000, immutable';

const logoQuery = z.object({
  hostname: z.string({ error: 'must be one company host name' }).max(253, 'is too long').optional(),
  v: z.string({ error: 'must be one version' }).max(64, 'is too long').optional(),
});

/** Whether an If-None-Match header names this entity tag (or any, with `*`). */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return false;
  return value.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * The company's own profile and logo (our shape; the spec names GET and PUT /company and
 * GET /company/logo). Onboarding of a new company, POST /company, is in ./company.ts.
 */
export async function companyProfileRoutes(app: FastifyInstance) {
  await acceptCompanyForms(app);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = api.ctx;

  api.get(
    '/company',
    {
      config: { policy: ['company', 'read'] },
      schema: { summary: "Read the company's profile", tags: TAGS, response: { 200: sent(companyProfileAnswer) } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return { message: 'Company profile', data: await companyProfile(db, auth.companyId) };
    },
  );

  api.put(
    '/company',
    {
      config: { policy: ['company', 'update'] },
      schema: {
        summary: "Edit the company's profile; a multipart form may carry a new logo (file `logo`) or removeLogo=true",
        tags: TAGS,
        consumes: ['application/json', 'multipart/form-data'],
        response: { 200: sent(companyProfileAnswer) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const changed = await updateCompanyProfile(db, request, auth);
      return { message: changed ? COMPANY_SAVED_MESSAGE : NOTHING_TO_CHANGE_MESSAGE, data: await companyProfile(db, auth.companyId) };
    },
  );

  /**
   * Public, so that the sign-in page can show the logo of the host name typed: with `?hostname=`
   * it needs no token; without, it is the signed-in caller's. An unknown host name and a company
   * without a logo get the same 404, so the answer tells nothing about which host names exist.
   */
  api.get(
    '/company/logo',
    {
      config: { public: true, acrossCompanies: 'without a token the company is found by its host name' },
      schema: {
        summary: "The company's logo (the caller's, or ?hostname= without a token)",
        tags: TAGS,
        querystring: logoQuery,
        response: { 200: logoAnswer },
      },
    },
    async (request, reply) => {
      const { hostname, v } = request.query;
      let logo: StoredLogo | null;
      if (hostname !== undefined) {
        const name = normaliseHostname(hostname);
        logo = HOSTNAME_PATTERN.test(name) ? await logoOfHostname(db, name) : null;
      } else {
        const auth = await signedInCaller(app, request);
        logo = await logoOfCompany(db, auth.companyId);
        reply.header('vary', TOKEN_HEADER);
      }
      return sendLogo(reply, request, logo, v);
    },
  );
}

/** The caller of a public route that also serves signed-in users: 401 without a valid full session. */
async function signedInCaller(app: FastifyInstance, request: FastifyRequest) {
  if (!request.headers[TOKEN_HEADER]) throw unauthorized();
  const auth = await authenticate(app, request);
  if (auth.stage !== 'full') throw unauthorized();
  return auth;
}

function sendLogo(reply: FastifyReply, request: FastifyRequest, logo: StoredLogo | null, version: string | undefined) {
  if (!logo) return reply.code(404).header('cache-control', 'no-cache').send({ message: NO_LOGO_MESSAGE });
  const etag = `"${logo.sha256}"`;
  // A URL naming the current version never changes; any other is checked again on each use.
  reply
    .header('etag', etag)
    .header('cache-control', version !== undefined && version === logoVersion(logo.sha256) ? IMMUTABLE : 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-type', logo.contentType);
  if (logo.contentType === 'image/svg+xml') reply.header('content-security-policy', SVG_CONTENT_SECURITY_POLICY);
  if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(logo.bytes);
}
