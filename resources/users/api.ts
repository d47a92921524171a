import { securityActions } from '../../common/contract/security';
import { usersContract } from '../../common/contract/users';
import type { DemoUserInput } from '../../common/schemas/users';
import { callAction, type ActionAnswer } from '../../providers/dataProvider';
import { ApiError, type Saved } from '../../providers/http';
import type { ActivityCard, PolicyEntry, User, UserPolicies } from './types';

/**
 * The users area's calls beyond the declared CRUD routes (docs/api/users.md): the contract's
 * actions (common/contract/users.ts). Every answer is `{ message, … }`; the message is what the
 * console shows as the alert.
 */

const { actions } = usersContract;

/** How a username is checked: free for this account (`/users/username/check`), or unused by anyone (demo accounts). */
export type UsernameCheck = { kind: 'account'; userId?: string } | { kind: 'unused' };

export async function isUsernameFree(name: string, check: UsernameCheck, signal?: AbortSignal): Promise<boolean> {
  if (check.kind === 'unused') {
    const answer = await callAction(actions.usernameTaken, { values: { name }, signal });
    return answer.data.duplicate !== true;
  }
  // The account goes as `?userId=` (none: the caller's own).
  const answer = await callAction(actions.usernameFree, { values: { name }, query: { userId: check.userId }, signal });
  return answer.data.available === true;
}

/** The query key of a username check, shared by the live hint and the form's validation. */
export function usernameCheckKey(name: string, check: UsernameCheck): unknown[] {
  return ['users', 'usernameCheck', check.kind, check.kind === 'account' ? (check.userId ?? 'self') : null, name];
}

/** A new temporary password and activation link for an invited user (the answer is the same whatever the address). */
export async function resendInvitation(email: string, companyHostname: string): Promise<string | undefined> {
  const answer = await callAction(actions.resendActivation, { body: { email, companyHostname } });
  return answer?.message;
}

export { getPolicyCatalogue } from '../roles/api';

export async function getUserPolicies(userId: string, signal?: AbortSignal): Promise<UserPolicies> {
  return (await callAction(actions.policies, { values: { userId }, signal })).data;
}

/** Replaces the user's own policies; an empty list gives the role's back. */
export async function saveUserPolicies(userId: string, policies: PolicyEntry[]): Promise<Saved<UserPolicies>> {
  const answer = await callAction(actions.assignPolicies, { values: { userId }, body: { policies } });
  return { message: answer.message, data: answer.data };
}

export const ACTIVITY_DAYS = 30;

export async function getActivityCards(userId: string, days = ACTIVITY_DAYS, signal?: AbortSignal): Promise<ActivityCard[]> {
  const answer = await callAction(actions.activityCards, { values: { userId, days }, signal });
  return answer.data.cards ?? [];
}

/** A demo or test account, active at once with the password given. */
export async function createDemoUser(body: DemoUserInput): Promise<ActionAnswer<typeof actions.demoUser>> {
  const answer = await callAction(actions.demoUser, { body });
  return { message: answer.message, data: answer.data };
}

/** Resets the user's two-factor (their app and recovery codes stop working; they are told by mail). */
export async function resetUserOtp(userId: string): Promise<string | undefined> {
  return (await callAction(securityActions.resetUserOtp, { values: { userId } })).message;
}

// ---- The signed-in user's own profile ------------------------------------------------------------

export interface OwnProfile {
  user: { id: string; email: string; companyHostname?: string; roleName?: string; otpEnabled?: boolean };
  data: User;
}

export async function getOwnProfile(signal?: AbortSignal): Promise<OwnProfile> {
  const answer = await callAction(actions.ownProfile, { signal });
  return { user: answer.user, data: answer.data } as OwnProfile;
}

/** `PUT /user/profile` as multipart, the way a browser's form sends it (the picture travels as a file). */
export async function saveOwnProfile(form: FormData): Promise<Saved<User>> {
  const answer = await callAction(actions.saveProfile, { body: form });
  // The row as the contract writes it; the console's User reads a role's name as always there.
  return { message: answer.message, data: answer.data as User };
}

/**
 * A user's picture as bytes, or null when they have none. The call needs the token header like
 * every other, so the picture cannot be an `<img src>`: the action's file answer is read here.
 */
export async function fetchAvatar(userId: string, signal?: AbortSignal): Promise<Blob | null> {
  try {
    return await (await callAction(actions.avatar, { values: { id: userId }, signal })).blob();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}
