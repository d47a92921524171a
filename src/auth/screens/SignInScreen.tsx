import { Link } from 'react-router';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { CompanyLogo } from '../components/CompanyLogo';
import { PasswordField } from '../components/PasswordField';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
import { TextField } from '../components/TextField';
import { t } from '../i18n';
import { useCompanySignup } from './useCompanySignup';
import { useSignIn } from './useSignIn';

export function SignInScreen() {
  return (
    <StageGate allow={['signedOut', 'verifyOtp', 'setupOtp']}>
      <SignInForm />
    </StageGate>
  );
}

function SignInForm() {
  const { form, submit, loading, blocked, startLoadingConsole, prefilled } = useSignIn();
  const signupOpen = useCompanySignup();
  return (
    <AuthLayout
      title={t('auth.signin.title')}
      subtitle={t('auth.signin.subtitle')}
      companyMark={<CompanyLogo hostname={form.values.companyHostname} />}
    >
      <form className="auth-form" onSubmit={submit} onInput={startLoadingConsole} noValidate>
        <TextField {...form.field('email')} label={t('auth.fields.email')} type="email" autoComplete="username" autoFocus={!prefilled} />
        <PasswordField
          {...form.field('password')}
          label={t('auth.fields.password')}
          autoComplete="current-password"
          autoFocus={prefilled}
        />
        <TextField
          {...form.field('companyHostname')}
          label={t('auth.fields.companyHostname')}
          hint={t('auth.fields.companyHostnameHint')}
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
        />
        {blocked && (
          <p className="auth-callout">
            {t('auth.signin.blocked')} <Link to={AUTH_PATHS.contactAdmin}>{t('auth.links.contactAdmin')}</Link>
          </p>
        )}
        <SubmitButton loading={loading} label={t('auth.signin.submit')} busyLabel={t('auth.signin.submitting')} />
      </form>
      <AuthLinks
        links={[
          { to: AUTH_PATHS.resetPassword, label: t('auth.links.forgotPassword') },
          { to: AUTH_PATHS.resetUserAccount, label: t('auth.links.activationExpired') },
          { to: AUTH_PATHS.contactAdmin, label: t('auth.links.troubleSigningIn') },
          // Offered only when this server takes sign-ups (a server that does not say is taken as closed).
          ...(signupOpen === true ? [{ to: AUTH_PATHS.createCompany, label: t('auth.links.createCompany') }] : []),
        ]}
      />
    </AuthLayout>
  );
}
