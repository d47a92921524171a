import { z } from 'zod';
import { hostnameProblem, normaliseHostname } from '../hostname';

/**
 * Rules for the bodies of the users area. The server validates with them and the console's
 * forms import the same file, so both say the same thing about the same field. Messages are
 * phrased to follow the field's name ("firstName: is required").
 */

/** Letters (any script), spaces, apostrophes, hyphens and periods: "Anne-Marie O'Neil Jr.", or nothing. */
export const PERSON_NAME_PATTERN = /^(?:[\p{L}\p{M}](?:[\p{L}\p{M} '’.-]*[\p{L}\p{M}.])?)?$/u;
export const PERSON_NAME_MAX = 100;

export const personName = z
  .string({ error: 'is required' })
  .trim()
  .max(PERSON_NAME_MAX, `must be at most ${PERSON_NAME_MAX} characters`)
  .regex(PERSON_NAME_PATTERN, 'may only contain letters, spaces, apostrophes, hyphens and periods');
export const requiredPersonName = personName.min(1, 'is required');

export const userEmail = z
  .string({ error: 'is required' })
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be a valid email address' }));

export const recordId = z.uuid({ error: 'must be a valid id' });

/** A role picked from the list: none picked reads as words ("Choose a role"); anything else must be an id. */
const chosenRole = z.string({ error: 'Choose a role' }).min(1, 'Choose a role').pipe(recordId);

/** A company's host name, the one users type to sign in: normalised, then checked. */
export const companyHostname = z
  .string({ error: 'is required' })
  .max(253, 'is too long')
  .transform(normaliseHostname)
  .superRefine((value, ctx) => {
    const problem = hostnameProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/** POST /user/token/resend: the account waiting to be activated, by its email and its company's host name. */
export const accountLookupSchema = z.object({ email: userEmail, companyHostname });

/** Usernames: 3–40 of a-z, 0-9, dot, underscore, hyphen. Typed in any case, kept in lower case, unique per company. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 40;
export const USERNAME_PATTERN = /^[a-z0-9._-]+$/;
export const username = z
  .string({ error: 'must be a string' })
  .trim()
  .toLowerCase()
  .min(USERNAME_MIN, `must be at least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `must be at most ${USERNAME_MAX} characters`)
  .regex(USERNAME_PATTERN, 'may only contain letters, digits, dots, underscores and hyphens');

/** The problem with a username as a sentence, or null: for forms that check as the user types. */
export function usernameProblem(value: string): string | null {
  const result = username.safeParse(value);
  return result.success ? null : `Username ${result.error.issues[0].message}`;
}

/** An empty text field of a form means "none". */
const emptyToNull = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? null : value);

/** A username that may be cleared: '' or null removes it. */
export const optionalUsername = z.preprocess(emptyToNull, username.nullable());

/** Digits with an optional leading +, and spaces, dots, hyphens or parentheses between them. */
export const PHONE_PATTERN = /^\+?[0-9(][0-9 ().-]{2,28}[0-9]$/;
export const phone = z.preprocess(
  emptyToNull,
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(30, 'must be at most 30 characters')
    .regex(PHONE_PATTERN, 'must be a phone number such as +44 20 7946 0958')
    .nullable(),
);

export const workspaceIds = z
  .array(recordId, { error: 'must be a list of workspace ids' })
  .max(200, 'may hold at most 200 workspaces')
  .transform((ids) => [...new Set(ids)]);

/** POST /user: an invitation. */
export const inviteUserSchema = z.object({
  email: userEmail,
  firstName: requiredPersonName,
  lastName: personName.default(''),
  roleId: chosenRole,
  workspaceIds: workspaceIds.optional(),
});
export type InviteUserInput = z.input<typeof inviteUserSchema>;

/**
 * PUT /user/profile/{id}: what an admin may change. Every field is optional; fields not listed
 * (a whole record sent back by a form) are ignored rather than refused.
 */
export const adminUserEditSchema = z.object({
  firstName: requiredPersonName.optional(),
  lastName: personName.optional(),
  username: optionalUsername.optional(),
  phone: phone.optional(),
  roleId: recordId.optional(),
  workspaceIds: workspaceIds.optional(),
  isActive: z.boolean({ error: 'must be true or false' }).optional(),
  otpRequired: z.boolean({ error: 'must be true or false' }).optional(),
});
export type AdminUserEditInput = z.input<typeof adminUserEditSchema>;

/** A form's "true"/"false" (multipart fields are text); JSON booleans pass as they are. */
const formBoolean = z.preprocess(
  (value) => (value === 'true' ? true : value === 'false' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/** PUT /user/profile: the text fields of one's own profile (the avatar travels as a file beside them). */
export const ownProfileSchema = z.object({
  firstName: requiredPersonName.optional(),
  lastName: personName.optional(),
  username: optionalUsername.optional(),
  phone: phone.optional(),
  /** true removes the profile picture. */
  removeAvatar: formBoolean.optional(),
});
export type OwnProfileInput = z.input<typeof ownProfileSchema>;

/** Profile pictures: PNG, JPEG or WebP, at most 1 MB. */
export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];

export const MPIN_PATTERN = /^[0-9]{4,6}$/;
export const mpinSchema = z.object({
  mpin: z.string({ error: 'is required' }).regex(MPIN_PATTERN, 'must be 4 to 6 digits'),
});

export const aiNotificationSchema = z.object({
  aiNotification: z.boolean({ error: 'must be true or false' }),
});

/**
 * POST /client/createUser: a demo or test account, active at once with the given password. The
 * password is held to the company's own rules (its service settings) by the server, and by the
 * console's form with the rules GET /settings/password-policy gives.
 */
export const demoUserSchema = z.object({
  email: userEmail,
  username,
  firstName: requiredPersonName,
  lastName: personName.default(''),
  password: z.string({ error: 'is required' }).min(1, 'is required'),
  roleId: chosenRole,
});
export type DemoUserInput = z.input<typeof demoUserSchema>;

/** The statuses a user is listed with. */
export const USER_STATUSES = ['active', 'invited', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Fields the user lists sort on. */
export const USER_SORT_FIELDS = ['createdAt', 'updatedAt', 'email', 'firstName', 'lastName', 'lastLoginAt', 'status'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
