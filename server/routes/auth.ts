import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signIn } from '../auth/signin';
import { currentPasswordField, emailField, hostnameField } from '../http/schemas';

const signinBody = z.object({ email: emailField, password: currentPasswordField, companyHostname: hostnameField });

export async function authRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = api.ctx;

  api.post('/signin', { config: { public: true }, schema: { body: signinBody } }, async (request) => {
    return signIn(ctx, request, request.body);
  });
}
