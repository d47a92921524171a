import { z } from 'zod';
import {
  accountLookupSchema,
  aiNotificationSchema,
  AVATAR_TYPES,
  demoUserSchema,
  mpinSchema,
  ownProfileSchema,
  recordId,
  USER_STATUSES,
  username,
} from '../schemas/users';
import { answer, card, choice, fileBytes, idName, listAnswer, timestamp } from './answers';
import { impersonator, passwordPolicyAnswer } from './answers/auth';
import { ownPolicies, userPolicies } from './answers/authorization';
import { assignPoliciesBody } from '../schemas/roles';
import { defineAction, defineContract, everyAction } from './define';

/**
 * A user as the lists, the one-user route, the edits and the own profile answer it
 * (docs/api/users.md). No answer holds a password, an MPIN or a two-factor secret, nor the
 * picture's bytes.
 */
export const userRow = z.object({
  id: z.string(),
  email: z.string(),
  /** Lower case, unique in the company; null when the user has none. */
  username: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  /** Derived: `inactive` when deactivated whatever else, else `invited` until the invitation is accepted, else `active`. */
  status: z.enum(USER_STATUSES),
  isActive: z.boolean(),
  roleId: z.string(),
  /** The role's name; null only when the role cannot be found. */
  roleName: z.string().nullable(),
  /** The user's role is an admin role. */
  isAdmin: z.boolean(),
  /** The user's workspaces that are not deleted, by name. */
  workspaces: z.array(idName),
  otpEnabled: z.boolean(),
  /** An admin requires two-factor set-up for this user. */
  otpRequired: z.boolean(),
  aiNotification: z.boolean(),
  /** Whether `GET /user/avatar/{id}` has a picture to give. */
  hasAvatar: z.boolean(),
  /** Null until the user first signs in. */
  lastLoginAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** Who invited or created the user; null for a company's first admin. */
  createdBy: z.string().nullable(),
});
export type User = z.infer<typeof userRow>;

/** `{ message, data: { rows, count, countExact } }` of users. */
export const userListAnswer = listAnswer(userRow);

/** `{ message, data: row }` */
export const userAnswer = answer(userRow);

/** `GET /users/filter/props`: the company's live workspaces, every role, the three statuses. */
export const userFilterPropsAnswer = answer(z.object({ workspace: z.array(choice), role: z.array(choice), status: z.array(choice) }));

/** `GET /users/cards` (`total`, `active`, `invited`, `inactive`, `twoFactor`) and `GET /user/profile/cards/…` (`signins`, `failedSignins`, `changes`, `openSessions`). */
export const userCards = z.object({ cards: z.array(card) });
export const userCardsAnswer = answer(userCards);

/** `POST /user` (201): the invitation is mailed. */
export const invitationAnswer = answer(z.object({ id: z.string(), email: z.string(), status: z.literal('invited') }));

/** `POST /user/verify`: the activation link is valid; the password to choose must follow the company's rules. */
export const activationLinkAnswer = answer(
  z.object({
    email: z.string(),
    /** The company host name the user signs in with (the sign-in form is filled with it after activation). */
    companyHostname: z.string().optional(),
    passwordPolicy: passwordPolicyAnswer,
  }),
);

/** `GET /client/checkDuplicateUserName/{name}` */
export const duplicateUsername = z.object({ duplicate: z.boolean() });

/** `GET /users/username/check/{name}` */
export const usernameAvailable = z.object({ available: z.boolean() });

/** `GET /user/profile`: the caller as the console's header shows them (`user`), and their full row (`data`). */
export const ownProfileAnswer = z.object({
  message: z.string(),
  user: z.object({
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    username: z.string().nullable(),
    roleId: z.string(),
    roleName: z.string(),
    isAdmin: z.boolean(),
    otpEnabled: z.boolean(),
    companyName: z.string(),
    companyHostname: z.string(),
    /** On an impersonation session, the admin behind it. */
    impersonator: impersonator.nullable(),
  }),
  data: userRow,
});

/** `PUT /user/notification` */
export const aiNotificationState = z.object({ aiNotification: z.boolean() });
export const aiNotificationAnswer = answer(aiNotificationState);

/** `GET /users/active`: the active users, for pickers (under `users`, not `data`). */
export const activeUsersAnswer = z.object({
  message: z.string(),
  users: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      roleName: z.string(),
      isAdmin: z.boolean(),
    }),
  ),
});

/** `GET /user/avatar/{id}`: the picture's bytes, under the type read from them (not JSON: declared per media type). */
export const avatarAnswer = {
  kind: 'file' as const,
  description: "The picture's bytes (PNG, JPEG or WebP, at most 1 MB)",
  content: Object.fromEntries(AVATAR_TYPES.map((type) => [type, { schema: fileBytes }])),
};

/** The console's preferences, `{ <key>: <value> }`: values are free-form JSON the console keeps (a missing key reads as null). */
export const preferencesAnswer = answer(z.record(z.string(), z.unknown()));

export const usersContract = defineContract({
  name: 'users',
  row: userRow,
  // What the filter orders by (a refused `{field}` names them in this order).
  fields: [
    { source: 'createdAt', type: 'datetime', sortable: true },
    { source: 'updatedAt', type: 'datetime', sortable: true },
    { source: 'email', type: 'email', sortable: true },
    { source: 'firstName', type: 'text', sortable: true },
    { source: 'lastName', type: 'text', sortable: true },
    { source: 'lastLoginAt', type: 'datetime', sortable: true },
    { source: 'status', type: 'status', sortable: true },
  ],
  routes: {
    list: '/users/{offset}/{limit}',
    filter: { path: '/users/filter/{limit}/{offset}/{order}/{field}', sort: { field: 'createdAt', order: 'DESC' } },
    filterProps: '/users/filter/props',
    cards: '/users/cards',
    one: '/users/{id}',
    create: '/user',
    update: '/user/profile/{id}',
    delete: '/users/{id}',
    // Activation is an edit of isActive (deactivating ends the user's sessions on the server).
    activate: { path: '/user/profile/{id}', method: 'PUT', body: { isActive: true } },
    deactivate: { path: '/user/profile/{id}', method: 'PUT', body: { isActive: false } },
  },
  policy: everyAction('users', 'Users', 0),
  page: { id: 'users', title: 'Users', url: '/users', group: 'access', icon: 'people', order: 7 },
  audit: { model: 'user' },
  activation: { field: 'isActive' },
  actions: {
    /** The caller's own profile: `user` as the session shows it, `data` the full record. */
    ownProfile: defineAction({ path: '/user/profile', method: 'GET', summary: 'Read your own profile', answer: ownProfileAnswer }),
    /** What the caller may do: every signed-in user, for the console to show only what they may use. */
    ownPolicies: defineAction({ path: '/authorization/user/policies', method: 'GET', summary: 'Your own policies', data: ownPolicies }),
    /** A user's role policies, own policies and what they add up to: one's own, or anyone's with users/read. */
    policies: defineAction({
      path: '/authorization/policies/{userId}',
      method: 'GET',
      summary: "Read a user's policies",
      params: { userId: recordId },
      data: userPolicies,
    }),
    /** Replaces the user's own policies (users/update); they apply from the user's next call. */
    assignPolicies: defineAction({
      path: '/authorization/policies/{userId}',
      method: 'POST',
      summary: "Replace a user's own policies",
      params: { userId: recordId },
      body: assignPoliciesBody,
      data: userPolicies,
    }),
    /** A demo or test account, active at once with the password given (no invitation). */
    demoUser: defineAction({
      path: '/client/createUser',
      method: 'POST',
      summary: 'Create a demo user who can sign in at once (no invitation)',
      body: demoUserSchema,
      data: userRow,
      status: 201,
    }),
    /** Whether anyone in the company has the name (demo accounts). */
    usernameTaken: defineAction({
      path: '/client/checkDuplicateUserName/{name}',
      method: 'GET',
      summary: 'Check whether a username is taken',
      params: { name: username },
      data: duplicateUsername,
    }),
    /** Whether the name is free for an account (`?userId=`, else the caller's): its own name counts as free. */
    usernameFree: defineAction({
      path: '/users/username/check/{name}',
      method: 'GET',
      summary: 'Check whether a username is free for a user',
      params: { name: username },
      query: z.object({ userId: recordId.optional() }),
      data: usernameAvailable,
    }),
    /** `{userId}` is the caller's own, or anyone's for a user who may read users; `{days}` runs from 1 to 365. */
    activityCards: defineAction({
      path: '/user/profile/cards/{userId}/{days}',
      method: 'GET',
      summary: "Counts of a user's activity over the last days",
      params: {
        userId: recordId,
        days: z.coerce
          .number({ error: 'must be a number' })
          .int('must be a whole number')
          .min(1, 'must be at least 1')
          .max(365, 'must be at most 365'),
      },
      data: userCards,
    }),
    /** The caller's own profile, as a multipart form that may carry a picture (JSON is taken too, without one). */
    saveProfile: defineAction({
      path: '/user/profile',
      method: 'PUT',
      summary: 'Edit your own profile (a multipart form may carry a picture)',
      body: { kind: 'multipart', parts: ownProfileSchema.extend({ avatar: fileBytes.optional() }) },
      data: userRow,
    }),
    /** A user's picture: 404 when they have none. */
    avatar: defineAction({ path: '/user/avatar/{id}', method: 'GET', summary: "A user's profile picture", answer: avatarAnswer }),
    aiNotification: defineAction({
      path: '/user/notification',
      method: 'PUT',
      summary: 'Turn your AI notifications on or off',
      body: aiNotificationSchema,
      data: aiNotificationState,
    }),
    /** A new temporary password and activation link for an account waiting to be activated; the same answer whatever the address. */
    resendActivation: defineAction({
      path: '/user/token/resend',
      method: 'POST',
      summary: 'Mail a new activation link',
      access: 'public',
      body: accountLookupSchema,
    }),
    /** One's own MPIN, or anyone's for an admin. */
    setMpin: defineAction({
      path: '/user/mpin/create/{id}',
      method: 'PUT',
      summary: "Set a user's MPIN (your own, or anyone's as an admin)",
      body: mpinSchema,
    }),
  },
});
