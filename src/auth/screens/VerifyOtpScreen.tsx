import { useState, type FormEvent } from 'react';
import { verifyOtp, verifyRecoveryCode } from '../../../providers/authActions';
import { AnotherAccountLink } from '../components/AnotherAccountLink';
import { AuthLayout } from '../components/AuthLayout';
import { OtpField } from '../components/OtpField';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
import { TextField } from '../components/TextField';
import { t } from '../i18n';
import { useOtpStep } from './useOtpStep';

export function VerifyOtpScreen() {
  return (
    <StageGate allow={['verifyOtp']}>
      <VerifyOtpForm />
    </StageGate>
  );
}

function VerifyOtpForm() {
  const [useRecovery, setUseRecovery] = useState(false);
  return (
    <AuthLayout title={t('auth.otp.title')} subtitle={useRecovery ? t('auth.recovery.signinSubtitle') : t('auth.otp.subtitle')}>
      {useRecovery ? <RecoveryCodeForm /> : <AppCodeForm />}
      <ul className="auth-links">
        <li>
          <button type="button" className="auth-link-button" onClick={() => setUseRecovery(!useRecovery)}>
            {useRecovery ? t('auth.recovery.useApp') : t('auth.recovery.useCode')}
          </button>
        </li>
        <li>
          <AnotherAccountLink />
        </li>
      </ul>
    </AuthLayout>
  );
}

function AppCodeForm() {
  const { state, otp } = useOtpStep(verifyOtp);
  return (
    <form className="auth-form" onSubmit={otp.onSubmit} noValidate>
      <OtpField value={otp.code} error={otp.error} onChange={otp.onChange} />
      <SubmitButton loading={state.loading} label={t('auth.otp.submit')} busyLabel={t('auth.otp.submitting')} />
    </form>
  );
}

/** Looks like a recovery code ("abcde-fghjk", any case, spaces or hyphens anywhere); the server is the judge. */
function looksLikeRecoveryCode(value: string): boolean {
  return /^[a-z0-9]{10}$/.test(value.replace(/[\s-]+/g, '').toLowerCase());
}

/** One of the ten recovery codes, for when the authenticator app is out of reach; each works once. */
function RecoveryCodeForm() {
  const { state, confirm } = useOtpStep(verifyRecoveryCode);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!looksLikeRecoveryCode(code)) {
      setError(t('auth.recovery.invalid'));
      return;
    }
    if (!(await confirm(code))) setCode('');
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <TextField
        name="recoveryCode"
        label={t('auth.recovery.field')}
        value={code}
        error={error}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={40}
        autoFocus
      />
      <SubmitButton loading={state.loading} label={t('auth.otp.submit')} busyLabel={t('auth.otp.submitting')} />
    </form>
  );
}
