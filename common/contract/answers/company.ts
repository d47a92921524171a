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

/** `GET /company/signup` (public): whether this server lets anyone onboard a company (`POST /company`). */
export const signupAnswer = answer(z.object({ open: z.boolean() }));

/** One of the company's admins, as a user refused a page is told whom to ask: a name and an email, nothing more. */
export const companyAdmin = z.object({ name: z.string(), email: z.string() });

/** `GET /company/admins`: the company's active admins, for any signed-in user of the company. */
export const companyAdminsAnswer = answer(z.array(companyAdmin));

/** The getting-started steps of a new company, in the order they are taken. */
export const GETTING_STARTED_STEPS = ['connection', 'table', 'rules', 'workflow', 'colleague'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

/** `GET /company/getting-started`: which steps the company's data shows done. */
export const gettingStartedAnswer = answer(
  z.object({ steps: z.array(z.object({ key: z.enum(GETTING_STARTED_STEPS), done: z.boolean() })) }),
);
