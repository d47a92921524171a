import { AUTH_PATHS } from '../../../providers/authPaths';
import { AccountLookupForm } from '../components/AccountLookupForm';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { t } from '../i18n';
import { useResendActivation } from './useResendActivation';

export function ResetUserAccountScreen() {
  const { form, submit, loading } = useResendActivation();
  return (
    <AuthLayout title={t('auth.resend.title')} subtitle={t('auth.resend.subtitle')}>
      <AccountLookupForm
        form={form}
        submit={submit}
        loading={loading}
        label={t('auth.resend.submit')}
        busyLabel={t('auth.resend.submitting')}
      />
      <AuthLinks
        links={[
          { to: AUTH_PATHS.signIn, label: t('auth.links.backToSignIn') },
          { to: AUTH_PATHS.contactAdmin, label: t('auth.links.troubleSigningIn') },
        ]}
      />
    </AuthLayout>
  );
}
