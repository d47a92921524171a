import { AUTH_PATHS } from '../../../providers/authPaths';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { PasswordPair } from '../components/PasswordPair';
import { RedirectNotice } from '../components/RedirectNotice';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
import { TextField } from '../components/TextField';
import { t } from '../i18n';
import { useCompanySignup } from './useCompanySignup';
import { useCreateCompany } from './useCreateCompany';

/** "Create your company": onboarding of a company and its first admin, offered only while this server takes sign-ups. */
export function CreateCompanyScreen() {
  return (
    <StageGate allow={['signedOut', 'verifyOtp', 'setupOtp']}>
      <CreateCompany />
    </StageGate>
  );
}

function CreateCompany() {
  const open = useCompanySignup();
  const { form, submit, redirect, loading } = useCreateCompany();
  const showForm = open === true && !redirect.target;
  return (
    <AuthLayout title={t('auth.createCompany.title')} subtitle={showForm ? t('auth.createCompany.subtitle') : undefined}>
      {open === null && <p className="auth-hint">{t('auth.createCompany.checking')}</p>}
      {open === false && <p className="auth-text">{t('auth.createCompany.closed')}</p>}
      {showForm && (
        <form className="auth-form" onSubmit={submit} noValidate>
          <TextField {...form.field('companyName')} label={t('auth.createCompany.companyName')} autoComplete="organization" autoFocus />
          <TextField
            {...form.field('companyHostname')}
            label={t('auth.fields.companyHostname')}
            hint={t('auth.createCompany.companyHostnameHint')}
            autoCapitalize="none"
            spellCheck={false}
          />
          <TextField {...form.field('firstName')} label={t('auth.createCompany.firstName')} autoComplete="given-name" />
          <TextField {...form.field('lastName')} label={t('auth.createCompany.lastName')} autoComplete="family-name" />
          <TextField {...form.field('adminEmail')} label={t('auth.createCompany.adminEmail')} type="email" autoComplete="username" />
          <PasswordPair password={form.field('newPassword')} confirmation={form.field('confirmPassword')} />
          <SubmitButton loading={loading} label={t('auth.createCompany.submit')} busyLabel={t('auth.createCompany.submitting')} />
        </form>
      )}
      <RedirectNotice redirect={redirect} />
      <AuthLinks links={[{ to: AUTH_PATHS.signIn, label: t('auth.links.backToSignIn') }]} />
    </AuthLayout>
  );
}
