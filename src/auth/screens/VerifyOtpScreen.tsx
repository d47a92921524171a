import { verifyOtp } from '../../../providers/authActions';
import { AnotherAccountLink } from '../components/AnotherAccountLink';
import { AuthLayout } from '../components/AuthLayout';
import { OtpField } from '../components/OtpField';
import { StageGate } from '../components/StageGate';
import { SubmitButton } from '../components/SubmitButton';
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
  const { state, otp } = useOtpStep(verifyOtp);
  return (
    <AuthLayout title={t('auth.otp.title')} subtitle={t('auth.otp.subtitle')}>
      <form className="auth-form" onSubmit={otp.onSubmit} noValidate>
        <OtpField value={otp.code} error={otp.error} onChange={otp.onChange} />
        <SubmitButton loading={state.loading} label={t('auth.otp.submit')} busyLabel={t('auth.otp.submitting')} />
      </form>
      <ul className="auth-links">
        <li>
          <AnotherAccountLink />
        </li>
      </ul>
    </AuthLayout>
  );
}
