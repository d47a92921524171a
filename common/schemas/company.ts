import { z } from 'zod';
import { isCountryCode } from '../countries';
import { phone, userEmail } from './users';

/**
 * Rules for the company profile (`PUT /company`), shared by the server and the console's form so
 * that both say the same thing about the same field. Every value may arrive as text from a
 * multipart form: an empty text field means "none", `removeLogo` may be "true"/"false".
 */

/** Company logos: PNG, JPEG or SVG (sanitised), at most 512 KB. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const;
export type LogoType = (typeof LOGO_TYPES)[number];
/** The multipart file field that carries a new logo. */
export const LOGO_FIELD = 'logo';
export const LOGO_TYPE_MESSAGE = 'logo: must be a PNG, JPEG or SVG image';
export const LOGO_TOO_LARGE_MESSAGE = `logo: must be at most ${LOGO_MAX_BYTES / 1024} KB`;

export const COMPANY_NAME_MAX = 200;

/** The fields of the profile a company may edit, in the order the form shows them. */
export const COMPANY_PROFILE_FIELDS = [
  'name',
  'contactEmail',
  'phone',
  'website',
  'addressLine',
  'city',
  'postalCode',
  'country',
  'timezone',
] as const;
export type CompanyProfileField = (typeof COMPANY_PROFILE_FIELDS)[number];

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** One line of text, trimmed, or null when empty. */
const optionalLine = (max: number) =>
  z.preprocess(
    emptyToNull,
    z
      .string({ error: 'must be text' })
      .trim()
      .max(max, `must be at most ${max} characters`)
      .refine((value) => !CONTROL_CHARACTERS.test(value), 'may not contain line breaks or control characters')
      .nullable(),
  );

export const companyName = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(COMPANY_NAME_MAX, `must be at most ${COMPANY_NAME_MAX} characters`)
  .refine((value) => !CONTROL_CHARACTERS.test(value), 'may not contain line breaks or control characters');

/** An absolute http(s) address of a site, without credentials in it. */
export function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && !url.username && !url.password;
  } catch {
    return false;
  }
}

export const website = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'must be text' })
    .trim()
    .max(500, 'must be at most 500 characters')
    .refine(isWebAddress, 'must be a web address starting with https:// or http://, such as https://acme.example')
    .nullable(),
);

export const POSTAL_CODE_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9 -]*[A-Za-z0-9])?$/;
export const postalCode = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'must be text' })
    .trim()
    .max(20, 'must be at most 20 characters')
    .regex(POSTAL_CODE_PATTERN, 'may only contain letters, digits, spaces and hyphens')
    .nullable(),
);

export const country = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'must be text' })
    .trim()
    .toUpperCase()
    .refine(isCountryCode, 'must be a two-letter ISO 3166 country code, such as GB or US')
    .nullable(),
);

/** Region/City names of the IANA database ("America/Argentina/Buenos_Aires", "Etc/GMT+5", "UTC"); not offsets. */
const TIME_ZONE_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

let zoneList: readonly string[] | null = null;
/** The IANA time zones this runtime knows, with UTC first. */
export function timeZones(): readonly string[] {
  if (!zoneList) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zoneList = ['UTC', ...known.filter((zone) => zone !== 'UTC')];
  }
  return zoneList;
}

/**
 * The zone's usual spelling ("europe/paris" → "Europe/Paris"), or null when it is not an IANA
 * time zone. An alias the runtime knows under another name (Asia/Kolkata where ICU lists
 * Asia/Calcutta) is kept as chosen.
 */
export function canonicalTimeZone(value: string): string | null {
  if (!TIME_ZONE_PATTERN.test(value)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  const lower = value.toLowerCase();
  const listed = timeZones().find((zone) => zone.toLowerCase() === lower);
  if (listed) return listed;
  return resolved.toLowerCase() === lower ? resolved : value;
}

export const timezone = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(64, 'must be at most 64 characters')
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone) return zone;
    ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone, such as Europe/Paris or UTC' });
    return z.NEVER;
  });

/** A form's "true"/"false" (multipart fields are text); JSON booleans pass as they are. */
const formBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/**
 * PUT /company: the fields to change (the others keep their value). Unknown fields are refused by
 * name, so a typo is not silently ignored; the host name is how users sign in and never changes.
 */
const profileShape = {
  name: companyName.optional(),
  contactEmail: z.preprocess(emptyToNull, userEmail.nullable()).optional(),
  phone: phone.optional(),
  website: website.optional(),
  addressLine: optionalLine(200).optional(),
  city: optionalLine(100).optional(),
  postalCode: postalCode.optional(),
  country: country.optional(),
  timezone: timezone.optional(),
  /** true removes the logo (not together with a new one). */
  removeLogo: formBoolean.optional(),
  hostname: z.never({ error: 'cannot be changed: it is the name users type to sign in' }).optional(),
};

/** The profile's fields, letting other keys through: the console's form also holds the record's id and the chosen file. */
export const companyProfileFields = z.looseObject(profileShape);

export const companyProfileSchema = companyProfileFields.superRefine(
  (body, ctx) => {
    for (const key of Object.keys(body)) {
      if (!Object.hasOwn(profileShape, key))
        ctx.addIssue({ code: 'custom', path: [key], message: 'is not a field of the company profile' });
    }
  },
  // Named beside the other fields' problems, not only once those are fixed.
  { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
);
export type CompanyProfileInput = z.input<typeof companyProfileSchema>;

/** The whole profile as the console's form holds it: the name and the time zone cannot be left empty. */
export const companyProfileFormSchema = companyProfileFields.extend({ name: companyName, timezone });
export type CompanyProfileEdit = z.output<typeof companyProfileSchema>;

/** GET /company's `data`, and PUT /company's once saved. */
export interface CompanyProfile {
  id: string;
  name: string;
  /** What users type at sign-in; read-only. */
  hostname: string;
  contactEmail: string | null;
  phone: string | null;
  website: string | null;
  addressLine: string | null;
  city: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  /** IANA time zone. */
  timezone: string;
  hasLogo: boolean;
  /** `/api/v1/company/logo?v=<version>`, or null without a logo. */
  logoUrl: string | null;
  createdAt: string;
  updatedAt: string;
}
