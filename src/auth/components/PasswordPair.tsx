import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from '../../../common/password-policy';
import { t } from '../i18n';
import type { FieldBinding } from '../hooks/useForm';
import { passwordRulesHint } from '../passwordRules';
import { PasswordField } from './PasswordField';

/** The new password and its confirmation, with the company's password rules as a hint. */
export function PasswordPair({
  password,
  confirmation,
  policy = DEFAULT_PASSWORD_POLICY,
}: {
  password: FieldBinding;
  confirmation: FieldBinding;
  policy?: PasswordPolicy;
}) {
  return (
    <>
      <PasswordField {...password} label={t('auth.fields.newPassword')} hint={passwordRulesHint(policy, t)} autoComplete="new-password" />
      <PasswordField {...confirmation} label={t('auth.fields.confirmPassword')} autoComplete="new-password" />
    </>
  );
}
