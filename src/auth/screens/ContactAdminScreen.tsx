import { useState } from 'react';
import { lastCompanyHostname } from '../../../providers/authActions';
import { AUTH_PATHS } from '../../../providers/authPaths';
import { AuthLayout } from '../components/AuthLayout';
import { AuthLinks } from '../components/AuthLinks';
import { t } from '../i18n';

export function ContactAdminScreen() {
  const [hostname] = useState(lastCompanyHostname);
  return (
    <AuthLayout title={t('auth.contact.title')}>
      <div className="auth-prose">
        <p>{t('auth.contact.intro')}</p>
        <h2>{t('auth.contact.whyTitle')}</h2>
        <ul>
          <li>{t('auth.contact.whyDeactivated')}</li>
          <li>{t('auth.contact.whyLocked')}</li>
          <li>{t('auth.contact.whyDevice')}</li>
          <li>{t('auth.contact.whyInvitation')}</li>
        </ul>
        <h2>{t('auth.contact.tellTitle')}</h2>
        <ul>
          <li>{t('auth.contact.tellEmail')}</li>
          <li>{hostname ? t('auth.contact.tellHostnameKnown', { hostname }) : t('auth.contact.tellHostname')}</li>
          <li>{t('auth.contact.tellWhat')}</li>
        </ul>
      </div>
      <AuthLinks
        links={[
          { to: AUTH_PATHS.signIn, label: t('auth.links.backToSignIn') },
          { to: AUTH_PATHS.resetPassword, label: t('auth.links.forgotPassword') },
        ]}
      />
    </AuthLayout>
  );
}
