import { useSearchParams } from 'react-router';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { AccountLookupForm } from '../components/AccountLookupForm';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { PasswordPair } from '../components/PasswordPair';
import { RedirectNotice } from '../components/RedirectNotice';
import { SubmitButton } from '../components/SubmitButton';
import { t } from '../i18n';
import { useCompleteReset } from './useCompleteReset';
import { useRequestReset } from './useRequestReset';

const backToSignIn = [{ to: AUTH_PATHS.signIn, label: t('auth.links.backToSignIn') }];

/** Without a token: ask for a reset link. With the link's ?token=: choose the new password. */
export function ResetPasswordScreen() {
  const token = useSearchParams()[0].get('token');
  return token ? <CompleteReset key={token} token={token} /> : <RequestReset />;
}

function RequestReset() {
  const { form, submit, redirect, loading } = useRequestReset();
  return (
    <AuthLayout title={t('auth.reset.requestTitle')} subtitle={t('auth.reset.requestSubtitle')}>
      {!redirect.target && (
        <AccountLookupForm
          form={form}
          submit={submit}
          loading={loading}
          label={t('auth.reset.requestSubmit')}
          busyLabel={t('auth.reset.requestSubmitting')}
        />
      )}
      <RedirectNotice redirect={redirect} />
      <AuthLinks links={backToSignIn} />
    </AuthLayout>
  );
}

function CompleteReset({ token }: { token: string }) {
  const { form, submit, redirect, loading, email, tokenStatus, allowReset, passwordPolicy } = useCompleteReset(token);
  const showForm = tokenStatus === 'valid' && allowReset && !redirect.target;
  return (
    <AuthLayout title={t('auth.reset.title')} subtitle={email ? t('auth.reset.subtitleFor', { email }) : undefined}>
      {tokenStatus === 'checking' && <p className="auth-hint">{t('auth.reset.verifying')}</p>}
      {tokenStatus === 'invalid' && (
        <>
          <p className="auth-text">{t('auth.reset.invalid')}</p>
          <AuthLinks links={[{ to: AUTH_PATHS.resetPassword, label: t('auth.reset.requestNew') }]} />
        </>
      )}
      {showForm && (
        <form className="auth-form" onSubmit={submit} noValidate>
          <input type="hidden" name="username" autoComplete="username" value={email} readOnly />
          <PasswordPair password={form.field('newPassword')} confirmation={form.field('confirmPassword')} policy={passwordPolicy} />
          <SubmitButton loading={loading} label={t('auth.reset.submit')} busyLabel={t('auth.reset.submitting')} />
        </form>
      )}
      <RedirectNotice redirect={redirect} />
      <AuthLinks links={backToSignIn} />
    </AuthLayout>
  );
}
