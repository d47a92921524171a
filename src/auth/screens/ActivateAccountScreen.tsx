import { AUTH_PATHS } from '../../../providers/authPaths';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { PasswordField } from '../components/PasswordField';
import { PasswordPair } from '../components/PasswordPair';
import { RedirectNotice } from '../components/RedirectNotice';
import { SubmitButton } from '../components/SubmitButton';
import { t } from '../i18n';
import { useActivateAccount } from './useActivateAccount';

export function ActivateAccountScreen() {
  const { form, submit, redirect, loading, email, tokenStatus, allowCreate, passwordPolicy } = useActivateAccount();
  const showForm = tokenStatus === 'valid' && allowCreate && !redirect.target;
  return (
    <AuthLayout title={t('auth.activate.title')} subtitle={showForm ? t('auth.activate.subtitle') : undefined}>
      {tokenStatus === 'checking' && <p className="auth-hint">{t('auth.activate.verifying')}</p>}
      {tokenStatus === 'invalid' && (
        <>
          <p className="auth-text">{t('auth.activate.invalid')}</p>
          <AuthLinks links={[{ to: AUTH_PATHS.resetUserAccount, label: t('auth.activate.requestNew') }]} />
        </>
      )}
      {showForm && (
        <form className="auth-form" onSubmit={submit} noValidate>
          {/* Lets password managers file the new password under the right account. */}
          <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
          <PasswordField
            {...form.field('temporaryPassword')}
            label={t('auth.fields.temporaryPassword')}
            hint={t('auth.fields.temporaryPasswordHint')}
            autoComplete="one-time-code"
            autoFocus
          />
          <PasswordPair password={form.field('newPassword')} confirmation={form.field('confirmPassword')} policy={passwordPolicy} />
          <SubmitButton loading={loading} label={t('auth.activate.submit')} busyLabel={t('auth.activate.submitting')} />
        </form>
      )}
      <RedirectNotice redirect={redirect} />
      <AuthLinks links={[{ to: AUTH_PATHS.signIn, label: t('auth.links.backToSignIn') }]} />
    </AuthLayout>
  );
}
