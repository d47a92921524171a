import { z } from 'zod';
import { answer } from '../answers';

/** `POST /company` (201): a new company and its first admin (docs/api.md, "Authentication"). */
export const onboardingAnswer = answer(
  z.object({
    companyId: z.string(),
    /** The host name its users type at sign-in. */
    companyHostname: z.string(),
    /** The first admin's email, who may sign in at once. */
    adminEmail: z.string(),
  }),
);
