/**
 * English texts of the console's entry, shell and authentication screens. Nested like
 * react-admin's message catalogues (keys read 'auth.signin.title'), with polyglot-style
 * `%{name}` placeholders, so the main app's i18nProvider can merge them as they are.
 */
export const authMessages = {
  shell: {
    loading: 'Loading…',
    pleaseWait: 'Please wait…',
    dismiss: 'Dismiss',
    chunk: {
      title: 'This part of the console could not be loaded',
      body: 'This part of the console could not be loaded. Check your connection and try again.',
      stale: 'A newer version of the console may have been released. Reloading the page fetches it.',
      crashed: 'Something went wrong while showing this page. Try again, or reload the page.',
      retry: 'Retry',
      reload: 'Reload the page',
    },
  },
  auth: {
    product: 'DataOps Console',
    tagline: 'Administration for your data platform',
    errors: {
      network: 'The server could not be reached. Check your connection and try again.',
    },
    fields: {
      email: 'Email',
      password: 'Password',
      companyHostname: 'Company host name',
      companyHostnameHint: 'The short name of your company, for example acme',
      temporaryPassword: 'Temporary password',
      temporaryPasswordHint: 'The one in your invitation email',
      currentPassword: 'Current password',
      newPassword: 'New password',
      confirmPassword: 'Confirm new password',
      code: 'Six-digit code',
      showPassword: 'Show password',
      hidePassword: 'Hide password',
    },
    /** The password rules of the company, as the new-password fields show them: "At least 12 characters, with an uppercase letter and a digit". */
    passwordRules: {
      hint: 'At least %{count} characters, with %{kinds}',
      and: 'and',
      lettersAndDigits: 'letters and digits',
      letter: 'a letter',
      uppercase: 'an uppercase letter',
      lowercase: 'a lowercase letter',
      digit: 'a digit',
      symbol: 'a symbol',
    },
    validation: {
      emailRequired: 'Email is required',
      emailInvalid: 'Enter a valid email address',
      passwordRequired: 'Password is required',
      mismatch: 'The passwords do not match',
      sameAsCurrent: 'The new password must differ from the current one',
      codeIncomplete: 'Enter the six digits of the code',
    },
    links: {
      forgotPassword: 'Forgot password?',
      activationExpired: 'Activation link expired?',
      troubleSigningIn: 'Trouble signing in?',
      backToSignIn: 'Back to sign-in',
      anotherAccount: 'Use another account',
      backToConsole: 'Back to the console',
      contactAdmin: 'Contact your administrator',
      goNow: 'Go now',
      createCompany: 'New here? Create your company',
    },
    redirect: {
      signIn: 'Taking you to sign-in in %{seconds} s…',
    },
    signin: {
      title: 'Sign in',
      subtitle: 'Use your work email and your company host name.',
      submit: 'Sign in',
      submitting: 'Signing in…',
      blocked: 'Your account cannot sign in right now. Your company administrator can help.',
      incomplete: 'The sign-in did not complete. Please try again.',
      companyLogo: 'Logo of %{hostname}',
    },
    otp: {
      title: 'Two-factor authentication',
      subtitle: 'Enter the six-digit code from your authenticator app.',
      submit: 'Verify',
      submitting: 'Verifying…',
    },
    register2fa: {
      title: 'Set up two-factor authentication',
      subtitle: 'Scan the QR code with an authenticator app, then enter the code it shows.',
      qrAlt: 'QR code to add this account to an authenticator app',
      manual: 'Cannot scan? Enter this key in the app instead:',
      copy: 'Copy key',
      copied: 'Copied',
      preparing: 'Preparing your key…',
      retry: 'Try again',
      submit: 'Turn on two-factor authentication',
      submitting: 'Confirming…',
    },
    recovery: {
      title: 'Save your recovery codes',
      subtitle: 'Two-factor authentication is on. If you lose your phone, each of these codes signs you in once.',
      listLabel: 'Recovery codes',
      hint: 'Keep them somewhere safe, such as a password manager. They are shown only now.',
      copy: 'Copy codes',
      copied: 'Copied',
      download: 'Download',
      continue: 'I have saved them, continue',
      useCode: 'Use a recovery code',
      useApp: 'Use the authenticator app',
      signinSubtitle: 'Enter one of the recovery codes you saved when you turned two-factor on.',
      field: 'Recovery code',
      invalid: 'Enter a recovery code like abcde-fghjk',
    },
    activate: {
      title: 'Activate your account',
      subtitle: 'Choose the password you will sign in with.',
      verifying: 'Checking your activation link…',
      invalid: 'This activation link cannot be used.',
      requestNew: 'Send me a new activation link',
      submit: 'Activate account',
      submitting: 'Activating…',
    },
    reset: {
      requestTitle: 'Reset your password',
      requestSubtitle: 'We will email you a link to choose a new password.',
      requestSubmit: 'Send reset link',
      requestSubmitting: 'Sending…',
      title: 'Choose a new password',
      subtitleFor: 'For %{email}',
      verifying: 'Checking your reset link…',
      invalid: 'This reset link cannot be used.',
      requestNew: 'Request a new reset link',
      submit: 'Save new password',
      submitting: 'Saving…',
    },
    change: {
      title: 'Change your password',
      subtitle: 'You will sign in again with the new password.',
      submit: 'Change password',
      submitting: 'Saving…',
    },
    resend: {
      title: 'Get a new activation link',
      subtitle: 'If your invitation expired, we will email you a new temporary password and link.',
      submit: 'Send activation link',
      submitting: 'Sending…',
    },
    logout: {
      title: 'Signing out',
      body: 'Signing you out…',
    },
    createCompany: {
      title: 'Create your company',
      subtitle: 'Your company gets its own host name; you become its first administrator.',
      checking: 'Checking whether new companies can be created here…',
      closed: 'This server does not take new companies. Ask its operator to create your company.',
      companyName: 'Company name',
      companyNameRequired: 'Company name is required',
      companyHostnameHint: 'Lower-case letters, digits and hyphens; your colleagues type it at sign-in',
      firstName: 'Your first name',
      firstNameRequired: 'First name is required',
      lastName: 'Your last name',
      lastNameRequired: 'Last name is required',
      adminEmail: 'Your work email',
      submit: 'Create company',
      submitting: 'Creating…',
    },
    contact: {
      title: 'Contact your administrator',
      intro:
        'Accounts in DataOps Console are managed by your own company. Your company administrator can unlock, reactivate or reset your account.',
      whyTitle: 'Why you might be here',
      whyDeactivated: 'Your account was deactivated.',
      whyLocked: 'Your sign-in was slowed or locked after too many attempts.',
      whyDevice: 'You lost the device that holds your two-factor codes.',
      whyInvitation: 'Your invitation expired before you activated your account.',
      tellTitle: 'What to tell your administrator',
      tellEmail: 'The email address you sign in with.',
      tellHostname: 'Your company host name.',
      tellHostnameKnown: 'Your company host name: %{hostname}.',
      tellWhat: 'What you were trying to do and any message you saw.',
    },
  },
} as const;

export type AuthMessages = typeof authMessages;

type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>;
}[keyof T & string];

/** Every key of the catalogue, e.g. 'auth.signin.title'. */
export type AuthMessageKey = Leaves<AuthMessages>;
