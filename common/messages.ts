/** Texts with a fixed wording that both halves agree on (spec section 8). */
export const PASSWORD_UPDATED_MESSAGE = 'Password Updated SuccessFully';
export const ONBOARDING_SUCCESS_MESSAGE =
  'Your company is ready. Welcome to DataOps Console: sign in with the admin account you just created.';
export const TEMPORARY_PASSWORD_MISMATCH = "The Temporary Password doesn't match";
export const ACCESS_DENIED_ALERT = "You don't have access to this resources. Please contact resource owner/admin to provide access";
