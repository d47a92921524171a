import { t } from '../i18n';
import type { FieldBinding } from '../hooks/useForm';
import { PasswordField } from './PasswordField';

/** The new password and its confirmation, with the policy as a hint. */
export function PasswordPair({ password, confirmation }: { password: FieldBinding; confirmation: FieldBinding }) {
  return (
    <>
      <PasswordField {...password} label={t('auth.fields.newPassword')} hint={t('auth.fields.passwordHint')} autoComplete="new-password" />
      <PasswordField {...confirmation} label={t('auth.fields.confirmPassword')} autoComplete="new-password" />
    </>
  );
}
