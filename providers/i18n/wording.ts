/**
 * English wording laid over the resources' own texts, so that one thing has one name across the
 * console: "two-factor" (never 2FA, OTP or MFA in what a user reads).
 */
export const wordingMessages = {
  resources: {
    users: {
      fields: {
        otpEnabled: 'Two-factor',
        otpRequired: 'Require two-factor',
      },
    },
  },
};
