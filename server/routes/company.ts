import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onboardingAnswer } from '../../common/contract/answers/company';
import { ONBOARDING_SUCCESS_MESSAGE } from '../../common/messages';
import { consumeRate } from '../auth/throttle';
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
