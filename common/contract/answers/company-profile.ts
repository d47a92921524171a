import { z } from 'zod';
import { LOGO_TYPES } from '../../schemas/company';
import { answer, timestamp } from '../answers';

/** The company's own profile and logo (server/routes/company-profile.ts; docs/api/company.md). */

/** `GET /company`'s `data`, and `PUT /company`'s once saved (the type is CompanyProfile of common/schemas/company.ts). */
export const companyProfile = z.object({
  id: z.string(),
  name: z.string(),
  /** What users type at sign-in; read-only. */
  hostname: z.string(),
  contactEmail: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  addressLine: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  /** ISO 3166-1 alpha-2. */
  country: z.string().nullable(),
  /** IANA time zone the company's reports and schedules are read in. */
  timezone: z.string(),
  hasLogo: z.boolean(),
  /** `/api/v1/company/logo?v=<version>`, or null without a logo. */
  logoUrl: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

export const companyProfileAnswer = answer(companyProfile);

/** A logo's bytes, as the image types a logo may have. */
const logoBytes = z.string().meta({ format: 'binary' });

/**
 * `GET /company/logo` (200): the image itself, not JSON; a 304 when `If-None-Match` names it,
 * and `404 { message: "No logo" }` for a company without one or an unknown host name.
 */
export const logoAnswer = {
  description: 'The logo: PNG, JPEG or SVG (sanitised)',
  content: Object.fromEntries(LOGO_TYPES.map((type) => [type, { schema: logoBytes }])) as Record<
    (typeof LOGO_TYPES)[number],
    { schema: typeof logoBytes }
  >,
};
