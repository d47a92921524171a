import { useState } from 'react';
import { Link } from 'react-router';
import { firstNavigationUrl } from '../../../providers/firstNavigationUrl';
import { AnotherAccountLink } from '../components/AnotherAccountLink';
import { AuthLayout } from '../components/AuthLayout';
import { OtpField } from '../components/OtpField';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
import { t } from '../i18n';
import { sessionStage } from '../session';
import { useRegisterTwoFactor } from './useRegisterTwoFactor';

/** For a sign-in that must set up two-factor first, and for a signed-in user turning it on. */
export function RegisterTwoFactorScreen() {
  return (
    <StageGate allow={['setupOtp', 'signedIn']}>
      <RegisterTwoFactor />
    </StageGate>
  );
}

function RegisterTwoFactor() {
  const { state, otp, setup, loadSetup, groupedSecret, copied, copySecret } = useRegisterTwoFactor();
  const [signedIn] = useState(() => sessionStage() === 'signedIn');
  return (
    <AuthLayout title={t('auth.register2fa.title')} subtitle={t('auth.register2fa.subtitle')}>
      {setup ? (
        <div className="auth-otp-setup">
          <img className="auth-qr" src={setup.qrCodeDataUrl} alt={t('auth.register2fa.qrAlt')} width={180} height={180} />
          <p className="auth-hint">{t('auth.register2fa.manual')}</p>
          <div className="auth-secret">
            <code data-testid="otp-secret">{groupedSecret}</code>
            <button type="button" className="auth-secondary" onClick={copySecret}>
              {copied ? t('auth.register2fa.copied') : t('auth.register2fa.copy')}
            </button>
          </div>
          <form className="auth-form" onSubmit={otp.onSubmit} noValidate>
            <OtpField value={otp.code} error={otp.error} onChange={otp.onChange} />
            <SubmitButton loading={state.loading} label={t('auth.register2fa.submit')} busyLabel={t('auth.register2fa.submitting')} />
          </form>
        </div>
      ) : state.loading ? (
        <p className="auth-hint">{t('auth.register2fa.preparing')}</p>
      ) : (
        <button type="button" className="auth-submit" onClick={loadSetup}>
          {t('auth.register2fa.retry')}
        </button>
      )}
      <ul className="auth-links">
        <li>{signedIn ? <Link to={firstNavigationUrl()}>{t('auth.links.backToConsole')}</Link> : <AnotherAccountLink />}</li>
      </ul>
    </AuthLayout>
  );
}
