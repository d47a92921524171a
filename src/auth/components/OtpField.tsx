import { t } from '../i18n';
import { OTP_LENGTH } from '../hooks/useOtpCode';
import { TextField } from './TextField';

/** The six-digit code field: numeric keypad on phones, filled from SMS or the OS where offered. */
export function OtpField({
  value,
  error,
  onChange,
  disabled,
}: {
  value: string;
  error?: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}) {
  return (
    <TextField
      name="otp"
      label={t('auth.fields.code')}
      value={value}
      error={error}
      onChange={onChange}
      disabled={disabled}
      className="auth-otp"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={OTP_LENGTH}
      autoFocus
    />
  );
}
