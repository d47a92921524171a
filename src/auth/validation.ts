import { hostnameProblem } from '../../common/hostname';
import { DEFAULT_PASSWORD_POLICY, passwordProblem, type PasswordPolicy } from '../../common/password-policy';
import { t } from './i18n';

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

/** Drops the rules that passed, so an empty object means the form is valid. */
export function collectErrors<T>(checks: Record<keyof T, string | null | undefined>): FieldErrors<T> {
  const errors: FieldErrors<T> = {};
  for (const key of Object.keys(checks) as (keyof T)[]) {
    const problem = checks[key];
    if (problem) errors[key] = problem;
  }
  return errors;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblem(value: string): string | null {
  const email = value.trim();
  if (!email) return t('auth.validation.emailRequired');
  return EMAIL_PATTERN.test(email) ? null : t('auth.validation.emailInvalid');
}

export function requiredPasswordProblem(value: string): string | null {
  return value ? null : t('auth.validation.passwordRequired');
}

export { hostnameProblem, passwordProblem };

export type PasswordPairValues = {
  newPassword: string;
  confirmPassword: string;
};

/** The new password follows the company's policy (common/password-policy.ts) and is typed twice alike. */
export function passwordPairErrors(
  values: PasswordPairValues,
  policy: PasswordPolicy = DEFAULT_PASSWORD_POLICY,
): FieldErrors<PasswordPairValues> {
  return collectErrors<PasswordPairValues>({
    newPassword: passwordProblem(values.newPassword, policy),
    confirmPassword: values.confirmPassword === values.newPassword ? null : t('auth.validation.mismatch'),
  });
}

export type AccountLookupValues = {
  email: string;
  companyHostname: string;
};

export function accountLookupErrors(values: AccountLookupValues): FieldErrors<AccountLookupValues> {
  return collectErrors<AccountLookupValues>({
    email: emailProblem(values.email),
    companyHostname: hostnameProblem(values.companyHostname),
  });
}
