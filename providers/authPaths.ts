/** The public routes of spec section 2, served by the auth part of the console. */
export const AUTH_PATHS = {
  signIn: '/auth/signin',
  verifyOtp: '/auth/verify-otp',
  registerTwoFactor: '/auth/register-2fa',
  activateAccount: '/auth/activate-user-account',
  resetPassword: '/auth/reset-password',
  changePassword: '/auth/change-password',
  resetUserAccount: '/auth/reset-user-account',
  logout: '/logout',
  contactAdmin: '/contact-admin',
  createCompany: '/auth/create-company',
} as const;

export type AuthPath = (typeof AUTH_PATHS)[keyof typeof AUTH_PATHS];

export const AUTH_PATH_LIST: readonly AuthPath[] = Object.values(AUTH_PATHS);

export function isAuthPath(pathname: string): pathname is AuthPath {
  return (AUTH_PATH_LIST as readonly string[]).includes(pathname);
}
