import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { firstNavigationUrl } from '../../../providers/firstNavigationUrl';
import { PROFILE_SECURITY } from '../../pages/profile/securityLink';
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

/** The recovery codes made as two-factor was turned on: shown this once, to copy, download or print. */
export function NewRecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <AuthLayout title={t('auth.recovery.title')} subtitle={t('auth.recovery.subtitle')}>
      <ul className="auth-recovery-codes" aria-label={t('auth.recovery.listLabel')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p className="auth-hint">{t('auth.recovery.hint')}</p>
      <div className="auth-secret">
        <button type="button" className="auth-secondary" onClick={copy}>
          {copied ? t('auth.recovery.copied') : t('auth.recovery.copy')}
        </button>
        <a
          className="auth-secondary"
          download="recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text + '\n')}`}
        >
          {t('auth.recovery.download')}
        </a>
      </div>
      <button type="button" className="auth-submit" onClick={onDone}>
        {t('auth.recovery.continue')}
      </button>
    </AuthLayout>
  );
}

function RegisterTwoFactor() {
  const { state, otp, setup, loadSetup, groupedSecret, copied, copySecret, alreadyOn, recoveryCodes, proceed } = useRegisterTwoFactor();
  const [signedIn] = useState(() => sessionStage() === 'signedIn');
  if (alreadyOn) return <Navigate to={PROFILE_SECURITY} replace />;
  if (recoveryCodes) return <NewRecoveryCodes codes={recoveryCodes} onDone={proceed} />;
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
