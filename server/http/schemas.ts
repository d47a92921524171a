import { z } from 'zod';
import { passwordProblem } from '../../common/password-policy';

/** Field schemas shared by the routes, with messages that name the problem. */
export const emailField = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be a valid email address' }));

export const passwordField = z.string({ error: 'is required' }).superRefine((value, ctx) => {
  const problem = passwordProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * A new password of a company's user: present here, and then held to the company's own rules by
 * the route (server/settings/enforce.ts), which may be looser or stricter than the default.
 */
export const newPasswordField = z.string({ error: 'is required' }).min(1, 'is required');

/** A password typed to prove who one is: checked for presence and size only. */
export const currentPasswordField = z.string({ error: 'is required' }).min(1, 'is required').max(1024, 'is too long');

export { companyHostname as hostnameField } from '../../common/schemas/users';

export const nameField = (max = 100) =>
  z.string({ error: 'is required' }).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

export const uuidParam = z.uuid({ error: 'must be a valid id' });

export const offsetParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(10_000_000, 'is too large');
export const limitParam = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be at least 1')
  .max(1000, 'must be at most 1000');
