import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyAdminsAnswer, gettingStartedAnswer, onboardingAnswer, signupAnswer } from '../../common/contract/answers/company';
import { ONBOARDING_SUCCESS_MESSAGE } from '../../common/messages';
import { requireAuth } from '../auth/guard';
import { consumeRate } from '../auth/throttle';
import { companyAdmins } from '../company/admins';
import { gettingStarted } from '../company/getting-started';
import { forbidden } from '../http/errors';
import { emailField, hostnameField, nameField, passwordField } from '../http/schemas';
import { provisionCompany } from '../tenancy/provision';

/** Onboardings allowed from one address per hour. */
export const ONBOARDING_RATE = { limit: 5, windowSeconds: 3600 };

const onboardingBody = z.object({
  companyName: nameField(200),
  companyHostname: hostnameField,
  adminEmail: emailField,
  adminPassword: passwordField,
  firstName: nameField(),
  lastName: nameField(),
});

export async function companyRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  /** Public: the sign-in screen offers "Create your company" only when this server takes sign-ups. */
  api.get(
    '/company/signup',
    {
      config: { public: true },
      schema: { summary: 'Whether this server lets anyone create a company', tags: ['Company'], response: { 200: signupAnswer } },
    },
    async () => {
      const open = api.ctx.config.allowCompanySignup;
      return { message: open ? 'Company sign-up is open' : 'Company sign-up is turned off on this server', data: { open } };
    },
  );

  /** Any signed-in user of the company may read whom to ask for access: names and emails of its active admins, nothing more. */
  api.get(
    '/company/admins',
    {
      schema: { summary: "The company's admins, to ask for access", tags: ['Company'], response: { 200: companyAdminsAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return { message: "The company's admins", data: await companyAdmins(api.ctx.db, auth.companyId) };
    },
  );

  /** The dashboard's getting-started checklist: which first steps the company's data shows taken (counts only, for any signed-in user). */
  api.get(
    '/company/getting-started',
    {
      schema: { summary: "The company's getting-started steps, done or not", tags: ['Company'], response: { 200: gettingStartedAnswer } },
    },
    async (request) => {
      const auth = requireAuth(request);
      return { message: 'Getting started', data: { steps: await gettingStarted(api.ctx.db, auth.companyId) } };
    },
  );

  /** Onboards another company with its first admin (our shape; the spec does not show it). */
  api.post(
    '/company',
    {
      config: { public: true, acrossCompanies: 'a new company is made, its host name checked against every other' },
      schema: {
        summary: 'Sign up a new company with its first admin',
        tags: ['Company'],
        body: onboardingBody,
        response: { 201: onboardingAnswer },
      },
    },
    async (request, reply) => {
      if (!api.ctx.config.allowCompanySignup) {
        throw forbidden('Company sign-up is turned off on this server; ask its operator to create your company');
      }
      await consumeRate(
        api.ctx.db,
        `onboard:ip:${request.ip}`,
        ONBOARDING_RATE.limit,
        ONBOARDING_RATE.windowSeconds,
        'company sign-ups from this address',
      );
      const body = request.body;
      const created = await provisionCompany(api.ctx.db, {
        name: body.companyName,
        hostname: body.companyHostname,
        admin: { email: body.adminEmail, password: body.adminPassword, firstName: body.firstName, lastName: body.lastName },
      });
      return reply.code(201).send({
        message: ONBOARDING_SUCCESS_MESSAGE,
        data: { companyId: created.companyId, companyHostname: body.companyHostname, adminEmail: body.adminEmail },
      });
    },
  );
}
