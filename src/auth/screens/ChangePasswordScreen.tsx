import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { PasswordField } from '../components/PasswordField';
import { PasswordPair } from '../components/PasswordPair';
import { RedirectNotice } from '../components/RedirectNotice';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
import { t } from '../i18n';
import { useChangePassword } from './useChangePassword';

export function ChangePasswordScreen() {
  return (
    <StageGate allow={['signedIn']}>
      <ChangePasswordForm />
    </StageGate>
  );
}

function ChangePasswordForm() {
  const { form, submit, redirect, loading, consoleUrl, passwordPolicy } = useChangePassword();
  return (
    <AuthLayout title={t('auth.change.title')} subtitle={t('auth.change.subtitle')}>
      {!redirect.target && (
        <form className="auth-form" onSubmit={submit} noValidate>
          <PasswordField
            {...form.field('currentPassword')}
            label={t('auth.fields.currentPassword')}
            autoComplete="current-password"
            autoFocus
          />
          <PasswordPair password={form.field('newPassword')} confirmation={form.field('confirmPassword')} policy={passwordPolicy} />
          <SubmitButton loading={loading} label={t('auth.change.submit')} busyLabel={t('auth.change.submitting')} />
        </form>
      )}
      <RedirectNotice redirect={redirect} />
      {!redirect.target && <AuthLinks links={[{ to: consoleUrl, label: t('auth.links.backToConsole') }]} />}
    </AuthLayout>
  );
}
