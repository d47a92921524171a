import { PASSWORD_UPDATED_MESSAGE } from '../common/messages';
import { normaliseHostname } from '../common/hostname';
import { readPasswordPolicy, type PasswordPolicy } from '../common/password-policy';
import { AUTH_PATHS } from './authPaths';
import { firstNavigationUrl } from './firstNavigationUrl';
import { apiRequest } from './http';
import { clearSession, getAccessToken, setStoredUser } from './storage';
import type { SessionUser } from './types';

/** Remembered between visits so the sign-in form can prefill it. */
export const LAST_HOSTNAME_KEY = 'lastCompanyHostname';

export interface Credentials {
  email: string;
  password: string;
  companyHostname: string;
}

export interface AccountLookup {
  email: string;
  companyHostname: string;
}

/** The outcome of a step that may sign the user in: the stored user and where to go next. */
export interface SignInResult {
  user: SessionUser | null;
  message: string;
  next: string;
  /** Turning two-factor on: the new recovery codes, shown this once (absent when the server makes none). */
  recoveryCodes?: string[];
}

export interface OtpSetup {
  secret: string;
  otpauthUrl: string;
  qrCodeDataUrl: string;
}

interface MessageAnswer {
  message?: string;
}
interface UserAnswer extends MessageAnswer {
  user?: SessionUser | null;
  recoveryCodes?: string[];
}
interface DataAnswer<T> extends MessageAnswer {
  data?: T;
}

/** Spec section 4: where a sign-in (or a two-factor step) leads. */
export function routeAfterSignIn(user: SessionUser | null | undefined): string {
  if (!user) return AUTH_PATHS.signIn;
  if (user.requireOTP) return AUTH_PATHS.verifyOtp;
  if (user.setupOTP) return AUTH_PATHS.registerTwoFactor;
  if (user.auth) return firstNavigationUrl(user);
  return AUTH_PATHS.signIn;
}

/**
 * Keeps the answer's user. One waiting for a two-factor step is stored with `auth: false`: its
 * token may only call the two-factor routes, and isSignedIn() is false for it.
 */
function storeSessionUser(answer: UserAnswer): SignInResult {
  const user = answer.user ?? null;
  clearSession();
  if (user && (user.requireOTP || user.setupOTP)) {
    const pending = { ...user, auth: false };
    setStoredUser(pending);
    return { user: pending, message: answer.message ?? '', next: routeAfterSignIn(pending) };
  }
  if (user?.auth) setStoredUser(user);
  return { user: user?.auth ? user : null, message: answer.message ?? '', next: routeAfterSignIn(user) };
}

export function lastCompanyHostname(): string {
  try {
    return localStorage.getItem(LAST_HOSTNAME_KEY) ?? '';
  } catch {
    return '';
  }
}

function rememberCompanyHostname(hostname: string): void {
  try {
    localStorage.setItem(LAST_HOSTNAME_KEY, hostname);
  } catch {
    // Private modes may refuse storage; prefilling is only a convenience.
  }
}

function lookupBody({ email, companyHostname }: AccountLookup): AccountLookup {
  return { email: email.trim(), companyHostname: normaliseHostname(companyHostname) };
}

export async function signIn(credentials: Credentials): Promise<SignInResult> {
  const body = { ...lookupBody(credentials), password: credentials.password };
  try {
    const answer = await apiRequest<UserAnswer>('/signin', { method: 'POST', body, public: true });
    rememberCompanyHostname(body.companyHostname);
    return storeSessionUser(answer);
  } catch (error) {
    // Spec section 4: a failed sign-in clears everything.
    clearSession();
    throw error;
  }
}

export async function verifyOtp(otp: string): Promise<SignInResult> {
  const answer = await apiRequest<UserAnswer>('/user/otp/verify', { method: 'POST', body: { otp } });
  return storeSessionUser(answer);
}

/** The sign-in's second step with one of the recovery codes instead of the app's code. */
export async function verifyRecoveryCode(recoveryCode: string): Promise<SignInResult> {
  const answer = await apiRequest<UserAnswer>('/user/otp/verify', { method: 'POST', body: { recoveryCode } });
  return storeSessionUser(answer);
}

export async function getOtpSetup(): Promise<OtpSetup> {
  const answer = await apiRequest<DataAnswer<OtpSetup>>('/user/otp/setup');
  if (!answer.data?.secret) throw new Error('The server did not return a two-factor key');
  return answer.data;
}

export async function registerOtp(otp: string): Promise<SignInResult> {
  const answer = await apiRequest<UserAnswer>('/user/otp/register', { method: 'POST', body: { otp } });
  const result = storeSessionUser(answer);
  return Array.isArray(answer.recoveryCodes) ? { ...result, recoveryCodes: answer.recoveryCodes } : result;
}

export async function forgotPassword(lookup: AccountLookup): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/user/password/forgot', { method: 'POST', body: lookupBody(lookup), public: true });
}

/** The reset-link check: the account's email, the grant to send back, and the company's password rules. */
export async function verifyResetToken(token: string): Promise<{ email: string; clientId: string; passwordPolicy: PasswordPolicy }> {
  const answer = await apiRequest<DataAnswer<{ email?: string; clientId?: string; passwordPolicy?: unknown }>>(
    '/user/password/token/verify',
    {
      method: 'POST',
      body: { resetPasswordToken: token },
      public: true,
    },
  );
  return {
    email: answer.data?.email ?? '',
    clientId: answer.data?.clientId ?? '',
    passwordPolicy: readPasswordPolicy(answer.data?.passwordPolicy),
  };
}

export async function resetPassword(body: { email: string; newPassword: string; clientId: string }): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/user/password/reset', { method: 'POST', body, public: true });
}

/** The activation-token check: `verified` is false unless the server accepted the token; the company's password rules come with it. */
export async function verifyActivationToken(
  token: string,
): Promise<{ email: string; companyHostname: string; verified: boolean; passwordPolicy: PasswordPolicy }> {
  const answer = await apiRequest<DataAnswer<{ email?: string; companyHostname?: string; verified?: boolean; passwordPolicy?: unknown }>>(
    '/user/verify',
    {
      method: 'POST',
      body: { token },
      public: true,
    },
  );
  return {
    email: answer.data?.email ?? '',
    companyHostname: answer.data?.companyHostname ?? '',
    verified: answer.data?.verified !== false,
    passwordPolicy: readPasswordPolicy(answer.data?.passwordPolicy),
  };
}

/** The signed-in user's company's password rules (the default ones when the server names none). */
export async function getPasswordPolicy(signal?: AbortSignal): Promise<PasswordPolicy> {
  const answer = await apiRequest<DataAnswer<unknown>>('/settings/password-policy', { signal });
  return readPasswordPolicy(answer.data);
}

export async function createPassword(body: {
  defaultPasswordToken: string;
  oldPassword: string;
  newPassword: string;
}): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/user/password/create', { method: 'POST', body, public: true });
}

/**
 * Changing the password ends every session of the user, this one included, so the stored
 * user goes too. The success text is the spec's fixed one, whatever the server says.
 */
export async function changePassword(body: { oldPassword: string; newPassword: string }): Promise<{ message: string }> {
  await apiRequest<MessageAnswer>('/user/password', { method: 'POST', body });
  clearSession();
  return { message: PASSWORD_UPDATED_MESSAGE };
}

export async function resendActivation(lookup: AccountLookup): Promise<MessageAnswer> {
  return apiRequest<MessageAnswer>('/user/token/resend', { method: 'POST', body: lookupBody(lookup), public: true });
}

/**
 * Signs out: forgets the session here at once (so a quick new sign-in cannot be wiped by a slow
 * answer), then ends it on the server when there was a token. A failure there is ignored: the
 * session may already be gone (expired, revoked), and signing out locally is what matters.
 */
export async function logout(): Promise<void> {
  const token = getAccessToken();
  clearSession();
  if (!token) return;
  try {
    await apiRequest('/session/logout', { method: 'PUT', body: {}, headers: { 'x-access-token': token } });
  } catch {
    // See above.
  }
}
